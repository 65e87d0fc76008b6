/**
 * Retrieval index format 2 (compact load: string tables, lexical segments without their own doc ids, texts
 * decoded per hit) against format 1, whose writer test/support keeps: over random chunks, both load to
 * the built index's tables, rank the same chunks with the same scores and return the same texts, alone
 * and composed over segments with tombstones; format 1 still reads.
 */
import { fc } from '../../support/property-seed';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectorEmbedder } from '../../../functions/adapters/embeddings/word-vector-loader';
import type { StringList } from '../../../functions/engine/lexical/string-table';
import { composeRetrievalIndexes } from '../../../functions/engine/retrieval/compose-index';
import { deserializeRetrievalIndex, serializeRetrievalIndex } from '../../../functions/engine/retrieval/index-format';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { retrieve } from '../../../functions/engine/retrieval/retrieve';
import { readSections, writeSections } from '../../../functions/engine/retrieval/section-file';
import type { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';
import { serializeRetrievalIndexV1 } from '../../support/legacy-index-formats';

let embedder: WordVectorEmbedder;
beforeAll(() => {
  embedder = loadWordVectorEmbedder();
});

const WORDS = ['tide', 'owl', 'night', 'bread', 'rye', 'glacier', 'valley', 'naïve', 'Ærø', '東京', 'moon', 'salt', '🦉', 'owls'];
const TITLES = ['', 'Tides', 'Owl night', 'Brot & Salz', '東京の月'];
const QUERIES = ['owl night', 'rye bread', 'glacier valley', 'tides moon', '東京', 'salt 🦉'];

const chunkArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  title: fc.constantFrom(...TITLES),
  file: fc.integer({ min: 0, max: 4 }),
  start: fc.integer({ min: -1, max: 5000 }),
});
type ChunkShape = typeof chunkArbitrary extends fc.Arbitrary<infer C> ? C : never;

const list = (texts: StringList): Array<string | undefined> => Array.from({ length: texts.length }, (_, ordinal) => texts.at(ordinal));

function toChunks(shapes: readonly ChunkShape[], segment: number): RetrievalChunk[] {
  return shapes.map((c, i) => ({
    id: `c${segment}-${i}`,
    fileId: `f${c.file}`,
    text: c.words.join(' '),
    title: c.title,
    start: c.start,
    end: c.start < 0 ? -1 : c.start + 10,
  }));
}

/** Everything a query returns, for every query: payload texts, items (ordinals, texts) and scores. */
async function answers(index: RetrievalIndex): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    for (const mode of ['lexical', 'semantic', 'fused'] as const)
      out.push(await retrieve(index, { query, topK: 5, mode, facts: true }, { embedder }));
  }
  return out;
}

function expectSameTables(loaded: RetrievalIndex, built: RetrievalIndex): void {
  expect(loaded.chunks.ids).toEqual(built.chunks.ids);
  expect(loaded.chunks.fileIds).toEqual(built.chunks.fileIds);
  expect(loaded.chunks.titles).toEqual(built.chunks.titles);
  expect(list(loaded.chunks.texts)).toEqual(list(built.chunks.texts));
  expect([...loaded.chunks.starts]).toEqual([...built.chunks.starts]);
  expect([...loaded.chunks.ends]).toEqual([...built.chunks.ends]);
  expect(loaded.text.docIds).toEqual(built.text.docIds);
  expect(loaded.titles.terms).toEqual(built.titles.terms);
  expect(loaded.links).toEqual(built.links);
}

describe('retrieval index format 2', () => {
  it('loads what format 1 loads and answers every query the same (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(chunkArbitrary, { minLength: 1, maxLength: 30 }), fc.boolean(), async (shapes, acceleration) => {
        const built = await buildRetrievalIndex(toChunks(shapes, 0), { embedder, acceleration });
        const bytes = serializeRetrievalIndex(built);
        const current = deserializeRetrievalIndex(bytes);
        const old = deserializeRetrievalIndex(serializeRetrievalIndexV1(built));
        expectSameTables(current, built);
        expectSameTables(old, built);
        expect(Array.isArray(current.chunks.texts)).toBe(false); // decoded per hit, not at load
        const want = await answers(built);
        expect(await answers(current)).toEqual(want);
        expect(await answers(old)).toEqual(want);
        // a loaded index (either format) is written again as the built one is
        expect(Buffer.from(serializeRetrievalIndex(current))).toEqual(Buffer.from(bytes));
        expect(Buffer.from(serializeRetrievalIndex(old))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('composes loaded segments with tombstones into the index the built segments compose into (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(chunkArbitrary, { minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 20 }),
        async (segments, deletions) => {
          let k = 0;
          const built: Array<{ index: RetrievalIndex; deleted: Set<number> }> = [];
          for (const [s, shapes] of segments.entries()) {
            const index = await buildRetrievalIndex(toChunks(shapes, s), { embedder });
            built.push({ index, deleted: new Set(shapes.flatMap((_, ordinal) => (deletions[k++ % deletions.length] ? [ordinal] : []))) });
          }
          fc.pre(built.some((part) => part.deleted.size < part.index.chunks.ids.length));
          const loaded = built.map((part) => ({ ...part, index: deserializeRetrievalIndex(serializeRetrievalIndex(part.index)) }));
          const want = composeRetrievalIndexes(built);
          const got = composeRetrievalIndexes(loaded);
          expectSameTables(got, want);
          expect(await answers(got)).toEqual(await answers(want));
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);

  it('keeps every chunk string exactly, lone surrogates and NULs included', async () => {
    const odd = ['a\u0000b', '\uD800 lone high', 'lone low \uDC00', '', 'plain', '😀 pair'];
    const chunks = odd.map((text, i): RetrievalChunk => ({ id: `${text}#${i}`, fileId: text || 'f', text, title: text }));
    const built = await buildRetrievalIndex(chunks);
    const loaded = deserializeRetrievalIndex(serializeRetrievalIndex(built));
    expectSameTables(loaded, built);
    expect(list(loaded.chunks.texts)).toEqual(odd);
    expect(loaded.chunks.texts.at(odd.length)).toBeUndefined();
    expect(loaded.chunks.texts.at(-1)).toBeUndefined();
  });

  it('is smaller than format 1', async () => {
    const shapes = Array.from({ length: 200 }, (_, i) => ({
      words: WORDS.slice(i % 5, (i % 5) + 8),
      title: TITLES[i % 5] ?? '',
      file: i % 4,
      start: i,
    }));
    const built = await buildRetrievalIndex(toChunks(shapes, 0));
    expect(serializeRetrievalIndex(built).length).toBeLessThan(serializeRetrievalIndexV1(built).length);
  });

  it('rejects a container with a section missing, a bad count or a short table', async () => {
    const built = await buildRetrievalIndex(toChunks([{ words: ['owl'], title: 'Owl', file: 0, start: 0 }], 0));
    const file = readSections(serializeRetrievalIndex(built), 'KMRI', 2);
    const rewrite = (header: unknown, change: (sections: Record<string, Uint8Array>) => void): Uint8Array => {
      const sections = Object.fromEntries(file.sections);
      change(sections);
      return writeSections('KMRI', 2, header, sections);
    };
    expect(() => deserializeRetrievalIndex(rewrite(file.header, (s) => delete s.texts))).toThrow(/no texts section/);
    expect(() => deserializeRetrievalIndex(rewrite({ count: 'one' }, () => {}))).toThrow(/bad header/);
    expect(() => deserializeRetrievalIndex(rewrite({ count: 2 }, () => {}))).toThrow(/holds 1 strings, expected 2/);
    expect(() => deserializeRetrievalIndex(rewrite(file.header, (s) => (s.ids = s.ids?.subarray(0, 8) ?? new Uint8Array())))).toThrow(
      /ids: truncated/,
    );
  });
});
