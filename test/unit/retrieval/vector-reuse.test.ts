/**
 * A rebuild keeps the previous build's vectors for chunks whose id, text and title are unchanged: only the
 * changed and new chunks reach the embedder (the real offline word vectors, observed on their way), and
 * the vectors come out byte for byte as a build from nothing makes them.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Embedder } from '../../../functions/engine/retrieval/embedder';
import { buildRetrievalIndex, type RetrievalChunk } from '../../../functions/engine/retrieval/retrieval-index';
import type { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectorEmbedder } from '../../../functions/adapters/embeddings/word-vector-loader';

let embedder: WordVectorEmbedder;
beforeAll(() => {
  embedder = loadWordVectorEmbedder();
});

const chunk = (id: string, text: string, title = 'notes'): RetrievalChunk => ({ id, fileId: id.split(':')[0] ?? id, text, title });

function observed(seen: string[]): Embedder {
  return { name: embedder.name, dimensions: embedder.dimensions, embed: (texts) => (seen.push(...texts), embedder.embed(texts)) };
}

it('embeds only the chunks that changed or are new, with the same vectors as a fresh build', async () => {
  const before = [chunk('a:0', 'Tides rise twice a day.'), chunk('b:0', 'Owls hunt at night.'), chunk('c:0', 'Rye bread keeps well.')];
  const previous = await buildRetrievalIndex(before, { embedder });
  const after = [before[0]!, chunk('b:0', 'Owls hunt at dusk and at night.'), before[2]!, chunk('d:0', 'Glaciers carve valleys.')];
  const seen: string[] = [];
  const rebuilt = await buildRetrievalIndex(after, { embedder: observed(seen), previous });
  expect(seen.map((text) => text.split('\n').pop())).toEqual(['Owls hunt at dusk and at night.', 'Glaciers carve valleys.']);
  const fresh = await buildRetrievalIndex(after, { embedder });
  expect(Buffer.from(rebuilt.vectors!.values.buffer)).toEqual(Buffer.from(fresh.vectors!.values.buffer));
  expect([...rebuilt.vectors!.scales]).toEqual([...fresh.vectors!.scales]);
});

it('embeds everything again when the previous build used another embedder or the title changed', async () => {
  const before = [chunk('a:0', 'Tides rise twice a day.')];
  const previous = await buildRetrievalIndex(before, { embedder });
  const seen: string[] = [];
  await buildRetrievalIndex(before, { embedder: { ...observed(seen), name: 'another' }, previous });
  await buildRetrievalIndex([chunk('a:0', 'Tides rise twice a day.', 'tides')], { embedder: observed(seen), previous });
  expect(seen).toHaveLength(2);
});
