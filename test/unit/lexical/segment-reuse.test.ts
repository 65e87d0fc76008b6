/**
 * A rebuild takes the analyzed terms of unchanged docs from the previous segment's postings: the segment
 * comes out exactly as a build from nothing makes it, and only docs not taken over are analyzed.
 */
import { expect, it } from 'vitest';
import { buildSegment, search } from '../../../functions/engine/lexical/segment';
import { deserializeRetrievalIndex, serializeRetrievalIndex } from '../../../functions/engine';
import { buildRetrievalIndex, type RetrievalChunk } from '../../../functions/engine/retrieval/retrieval-index';

const chunk = (id: string, text: string, title = 'notes'): RetrievalChunk => ({ id, fileId: id.split(':')[0] ?? id, text, title });

it('rebuilds the text and title segments as a fresh build does, with chunks removed, changed and added', async () => {
  const before = [
    chunk('a:0', 'Tides rise twice a day, tides fall twice a day.'),
    chunk('b:0', 'Owls hunt at night.', 'owls'),
    chunk('c:0', 'Rye bread keeps well.'),
    chunk('e:0', 'Swifts sleep while flying.', 'birds'),
  ];
  const previous = deserializeRetrievalIndex(serializeRetrievalIndex(await buildRetrievalIndex(before))); // as stored
  const after = [before[3]!, chunk('b:0', 'Owls hunt at dusk and at night.', 'owls'), before[0]!, chunk('d:0', 'Glaciers carve valleys.')];
  const rebuilt = await buildRetrievalIndex(after, { previous });
  const fresh = await buildRetrievalIndex(after);
  expect(rebuilt.text).toEqual(fresh.text);
  expect(rebuilt.titles).toEqual(fresh.titles);
  expect(search(rebuilt.text, 'tides', 3).map((hit) => hit.id)).toEqual(['a:0']);
});

it("takes a reused doc's terms from the previous segment, not from analyzing it again", () => {
  const previous = buildSegment([{ id: 'a', fileId: 'a', text: 'hedgehogs hibernate' }]);
  const docs = [
    { id: 'a', fileId: 'a', text: 'moles dig' },
    { id: 'b', fileId: 'b', text: 'moles dig' },
  ];
  const built = buildSegment(docs, {}, { previous, ordinals: new Map([[0, 0]]) });
  expect(search(built, 'hedgehogs', 2).map((hit) => hit.id)).toEqual(['a']);
  expect(search(built, 'moles', 2).map((hit) => hit.id)).toEqual(['b']);
  expect([...built.docLengths]).toEqual([2, 2]);
});

it('analyzes everything again when the previous segment used other analyzer options', () => {
  const previous = buildSegment([{ id: 'a', fileId: 'a', text: 'hedgehogs hibernate' }], { stem: false });
  const built = buildSegment([{ id: 'a', fileId: 'a', text: 'moles dig' }], {}, { previous, ordinals: new Map([[0, 0]]) });
  expect(search(built, 'moles', 1).map((hit) => hit.id)).toEqual(['a']);
  expect(search(built, 'hedgehogs', 1)).toEqual([]);
});
