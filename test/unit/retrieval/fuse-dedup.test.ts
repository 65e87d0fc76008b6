/** Fusion (weighted and reciprocal rank) and payload de-duplication / overlap merging. */
import { describe, expect, it } from 'vitest';
import { isNearDuplicate, joinOverlapping, toPayloadItems, wordShingles } from '../../../functions/engine/retrieval/dedup';
import { type FusedHit, fuseReciprocalRank, fuseWeighted, type RankedList } from '../../../functions/engine/retrieval/fuse';
import { buildRetrievalIndex, type RetrievalChunk } from '../../../functions/engine/retrieval/retrieval-index';

const list = (name: string, weight: number, hits: Array<[number, number]>, normalize: 'max' | 'none' = 'max'): RankedList => ({
  name,
  weight,
  normalize,
  hits: hits.map(([ordinal, score]) => ({ ordinal, score })),
});

describe('fuseWeighted', () => {
  it('sums weight × max-normalised scores and explains each part', () => {
    const fused = fuseWeighted(
      [
        list('lexical', 1, [
          [1, 10],
          [2, 5],
        ]),
        list(
          'semantic',
          0.5,
          [
            [2, 0.8],
            [3, 0.6],
          ],
          'none',
        ),
      ],
      10,
    );
    expect(fused.map((hit) => hit.ordinal)).toEqual([1, 2, 3]);
    expect(fused[1]?.score).toBeCloseTo(0.5 + 0.4, 12);
    expect(fused[1]?.parts).toEqual({ lexical: 0.5, semantic: 0.4 });
    expect(fused[2]?.score).toBeCloseTo(0.3, 12);
  });

  it('asks a list for the exact score of candidates it did not return', () => {
    const semantic = { ...list('semantic', 1, [[5, 0.9]], 'none'), scoreOf: (ordinal: number) => (ordinal === 1 ? 0.7 : 0) };
    const fused = fuseWeighted([list('lexical', 1, [[1, 2]]), semantic], 10);
    expect(fused.find((hit) => hit.ordinal === 1)?.score).toBeCloseTo(1.7, 12);
  });

  it('ignores zero-weight and empty lists, breaks ties on the lower ordinal and honours the limit', () => {
    const fused = fuseWeighted(
      [
        list('a', 1, [
          [9, 1],
          [4, 1],
          [7, 1],
        ]),
        list('b', 0, [[1, 100]]),
        list('c', 1, []),
      ],
      2,
    );
    expect(fused.map((hit) => hit.ordinal)).toEqual([4, 7]);
  });
});

describe('fuseReciprocalRank', () => {
  it('adds weight / (k + rank) over the lists', () => {
    const fused = fuseReciprocalRank(
      [
        list('a', 1, [
          [1, 9],
          [2, 8],
        ]),
        list('b', 2, [[2, 1]]),
      ],
      10,
      60,
    );
    expect(fused.map((hit) => hit.ordinal)).toEqual([2, 1]);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 2 / 61, 12);
  });
});

describe('joinOverlapping and near duplicates', () => {
  it('writes the shared part once', () => {
    expect(joinOverlapping('One two three. Four five six.', 'Four five six. Seven eight.')).toBe(
      'One two three. Four five six. Seven eight.',
    );
    expect(joinOverlapping('abc def', 'xyz')).toBe('abc def xyz');
    expect(joinOverlapping('the whole text here', 'whole text')).toBe('the whole text here');
  });

  it('detects re-ingested passages but not merely related ones', () => {
    const passage = 'The mitochondrion is the powerhouse of the cell and produces most of its ATP supply.';
    expect(isNearDuplicate(wordShingles(passage), wordShingles(`  ${passage.toUpperCase()} `))).toBe(true);
    expect(isNearDuplicate(wordShingles(passage), wordShingles('Ribosomes translate messenger RNA into proteins in the cell.'))).toBe(
      false,
    );
  });
});

describe('toPayloadItems', () => {
  const text = 'Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda mu.';
  const chunks: RetrievalChunk[] = [
    { id: 'f1#0', fileId: 'f1', text: 'Alpha beta gamma delta. Epsilon zeta eta theta.', start: 0, end: 47 },
    { id: 'f1#1', fileId: 'f1', text: 'Epsilon zeta eta theta. Iota kappa lambda mu.', start: 24, end: text.length },
    { id: 'f2#0', fileId: 'f2', text: 'Alpha beta gamma delta. Epsilon zeta eta theta.', start: 0, end: 47 },
    { id: 'f3#0', fileId: 'f3', text: 'Something else entirely, about ships and harbours and the open sea.', start: 0, end: 67 },
  ];
  const hit = (ordinal: number, score: number): FusedHit => ({ ordinal, score, parts: {} });

  it('merges overlapping chunks of one file, drops a duplicate from another file, keeps topK', async () => {
    const index = await buildRetrievalIndex(chunks);
    const items = toPayloadItems(index, [hit(1, 0.9), hit(0, 0.8), hit(2, 0.7), hit(3, 0.5)], 5);
    expect(items.map((item) => item.fileId)).toEqual(['f1', 'f3']);
    expect(items[0]).toMatchObject({ content: text, score: 0.9, ordinals: [1, 0], start: 0, end: text.length });
    expect(toPayloadItems(index, [hit(3, 0.9), hit(1, 0.8), hit(0, 0.7)], 1).map((item) => item.fileId)).toEqual(['f3']);
  });
});
