/** The time prior of ranking: no prior without a time, closeness to a named time, stating a time when asked. */
import { describe, expect, it } from 'vitest';
import { rankChunks } from '../../../functions/engine/retrieval/rank';
import { buildRetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { queryTimePrior, timePrior } from '../../../functions/engine/retrieval/time-prior';

const CHUNKS: ReadonlyArray<[string, string]> = [
  ['2023-05-20T10:00:00Z', 'We went to the pottery class and made two bowls.'],
  ['2023-07-02T10:00:00Z', 'The pottery class on Saturday was fun: I made a vase.'],
  ['2023-10-19T10:00:00Z', 'My pottery class teacher liked the bowls.'],
];
const index = await buildRetrievalIndex(CHUNKS.map(([, text], i) => ({ id: `c${i}`, fileId: 'f', text })));
const timeOf = (ordinal: number): number | undefined => {
  const at = CHUNKS[ordinal]?.[0];
  return at ? Date.parse(at) : undefined;
};
const reference = new Date('2023-10-20T12:00:00Z');

describe('time prior', () => {
  it('is absent for a query that neither names nor asks for a time, so ranking is unchanged', () => {
    expect(queryTimePrior(index, 'pottery class bowls', reference, timeOf)).toBeUndefined();
    const plain = rankChunks(index, { query: 'pottery class bowls', limit: 3 });
    expect(rankChunks(index, { query: 'pottery class bowls', limit: 3, prior: undefined })).toEqual(plain);
  });

  it('lifts the chunks of the time a query names, most inside it', () => {
    const prior = queryTimePrior(index, 'pottery class last May', reference, timeOf);
    expect(prior?.(0)).toBe(2); // inside the named time: closeness 1, weight 2
    expect(prior?.(1)).toBeGreaterThan(prior?.(2) ?? 1); // July is closer to May than October
    const ranked = rankChunks(index, { query: 'pottery class last May', limit: 3, ...(prior ? { prior } : {}) });
    expect(ranked[0]?.ordinal).toBe(0);
    expect(ranked[0]?.parts.prior).toBe(2);
  });

  it('lifts chunks that state a time when the query asks for one', () => {
    const prior = queryTimePrior(index, 'When did I make a vase in the pottery class?', reference, timeOf);
    expect(prior?.(1)).toBe(0.5); // "on Saturday": stating a time, weight 0.5
    expect(prior?.(0)).toBe(0);
  });

  it('places a chunk at the time it speaks of too, resolved against when it was written', async () => {
    const spoken = await buildRetrievalIndex([{ id: 'x', fileId: 'f', text: 'Last year we renovated the community centre.' }]);
    const written = () => Date.parse('2023-08-10T10:00:00Z');
    expect(queryTimePrior(spoken, 'community centre in 2022', reference, written)?.(0)).toBe(2);
    expect(queryTimePrior(spoken, 'community centre in 2019', reference, written)?.(0)).toBeLessThan(1);
  });

  it("reads no undated chunk's text when the query names a time but asks for none (its prior is 0 whatever it states)", async () => {
    const texts = ['In May 2023 the kiln was repaired.', 'The pottery class met on Saturday.'];
    const undated = await buildRetrievalIndex(texts.map((text, i) => ({ id: `u${i}`, fileId: 'f', text })));
    const read: number[] = [];
    const chunks = {
      timeOf: () => undefined,
      textOf: (ordinal: number) => {
        read.push(ordinal);
        return texts[ordinal] ?? '';
      },
    };
    const named = timePrior(chunks, undated, 'the kiln in May 2023', reference);
    expect([named?.(0), named?.(1)]).toEqual([0, 0]);
    expect(read).toEqual([]);
    // asked for a time, what an undated chunk states counts (and is read, once per chunk)
    const asked = timePrior(chunks, undated, 'When was the kiln repaired?', reference);
    expect([asked?.(0), asked?.(1), asked?.(0)]).toEqual([0.5, 0.5, 0.5]);
    expect(read).toEqual([0, 1]);
  });

  it('takes its weights and the fall-off of closeness as parameters', () => {
    const may = queryTimePrior(index, 'pottery class last May', reference, timeOf, { nearWeight: 1, halfAt: 1 });
    const sharp = queryTimePrior(index, 'pottery class last May', reference, timeOf, { nearWeight: 1, halfAt: 0.25 });
    expect(may?.(0)).toBe(1);
    expect(sharp?.(0)).toBe(1);
    expect(sharp?.(1)).toBeLessThan(may?.(1) ?? 0); // July: a month and a day after May, nearer one half with halfAt 1
    const asked = queryTimePrior(index, 'When did I make a vase?', reference, timeOf, { statesWeight: 2 });
    expect(asked?.(1)).toBe(2);
  });
});
