/**
 * Time in queries: a prior over chunks that GET /memory/ and GET /messages/search multiply fused scores by
 * (1 + prior), so a query that names a time ("last May", "in 2023", "yesterday") ranks sources from that
 * time higher, and one that asks for a time ("When did…") ranks sources that state one higher. Each part
 * is in [0, 1] times its weight (closeness to the named time: 1 inside it, one half `halfAt` span-lengths
 * away, weight 2: a chunk inside the named time scores three times; stating a time: 1 or 0, weight 0.5),
 * the two multiply. A query with neither has no prior, and ranking is
 * unchanged. The defaults were chosen by cross-validation on LoCoMo's development split
 * (`npx tsx bench/locomo.ts --loads spaced --cv 5 --cv-grid time`, bench/locomo/README.md).
 */
import { asksForTime, closeness, type TimeSpan, timeSpansIn } from '../text/time-expressions';
import type { RetrievalIndex } from './retrieval-index';

/** What a chunk the prior weighs is: its own time and text. */
export interface PriorChunks {
  /** A chunk's time (a message's `createdAt`), undefined when it has none. */
  timeOf(ordinal: number): number | undefined;
  textOf(ordinal: number): string;
}

export interface TimePriorParams {
  /** How far outside a named time closeness falls to one half, in lengths of that time. */
  halfAt: number;
  /** Weight of closeness to a named time (a chunk inside it: score × (1 + weight)). */
  nearWeight: number;
  /** Weight of stating a time, when the query asks for one. */
  statesWeight: number;
}

/**
 * Chosen by 5-fold cross-validation on LoCoMo dev (grid halfAt 1/0.5/0.25 × nearWeight 0.5/1/2 × statesWeight
 * 0.5/1/2, by all-questions R@5): 4 of the 5 folds chose this point; held-out temporal R@5 0.886 ± 0.046
 * against 0.868 ± 0.080 for the earlier 1/1/1.
 */
export const DEFAULT_TIME_PRIOR: Readonly<TimePriorParams> = Object.freeze({ halfAt: 1, nearWeight: 2, statesWeight: 0.5 });

/** The times each chunk's own text states, resolved against its own time, worked out once per chunk. */
const statedCache = new WeakMap<object, Map<number, readonly TimeSpan[]>>();

/**
 * The prior for `query` over `chunks`, or undefined when the query neither names nor asks for a time.
 * Relative expressions of the query resolve against `reference` (the conversation's latest message, or
 * now; a function is called only when the query has a time), a chunk's against its own time. A chunk is as close to a named time as the closer of when it was
 * written and what it says ("we went camping last week", written on 27 June, is of mid June). `cacheKey`
 * (the index the chunks are of) keeps what chunks state between queries.
 */
export function timePrior(
  chunks: PriorChunks,
  cacheKey: object,
  query: string,
  reference: Date | (() => Date),
  overrides: Partial<TimePriorParams> = {},
): ((ordinal: number) => number) | undefined {
  const params = { ...DEFAULT_TIME_PRIOR, ...overrides };
  const asks = asksForTime(query);
  // whether the query names a time does not hang on the reference: asked first, so a lazy one is worked out only then
  const resolved = () => (typeof reference === 'function' ? reference() : reference);
  const named = typeof reference === 'function' && timeSpansIn(query, new Date(UNDATED)).length === 0 ? [] : timeSpansIn(query, resolved());
  if (named.length === 0 && !asks) return undefined;
  return (ordinal) => {
    const written = chunks.timeOf(ordinal);
    // closeness counts for a chunk with a time of its own: without one, and with no time asked for, what its
    // text states cannot count, and is not read (parsing it is the prior's costly part: a file's chunks)
    if ((named.length === 0 || written === undefined) && !asks) return 0;
    const stated = statedTimes(chunks, cacheKey, ordinal, written);
    let near = 0;
    if (named.length > 0 && written !== undefined) {
      const at = { start: written, end: written };
      near = Math.max(closeness(named, at, params.halfAt), ...stated.map((span) => closeness(named, span, params.halfAt)));
    }
    const states = asks && stated.length > 0 ? 1 : 0;
    return (1 + params.nearWeight * near) * (1 + params.statesWeight * states) - 1;
  };
}

/** The prior over a retrieval index's chunks (GET /memory/); `timeOf` gives a chunk's time. */
export function queryTimePrior(
  index: RetrievalIndex,
  query: string,
  reference: Date,
  timeOf: (ordinal: number) => number | undefined,
  overrides?: Partial<TimePriorParams>,
): ((ordinal: number) => number) | undefined {
  return timePrior({ timeOf, textOf: (ordinal) => index.chunks.texts.at(ordinal) ?? '' }, index, query, reference, overrides);
}

function statedTimes(chunks: PriorChunks, cacheKey: object, ordinal: number, written: number | undefined): readonly TimeSpan[] {
  let cache = statedCache.get(cacheKey);
  if (!cache) statedCache.set(cacheKey, (cache = new Map()));
  let stated = cache.get(ordinal);
  if (stated === undefined) {
    // a chunk without a time of its own: what it states still counts as stating a time, not as when
    stated = timeSpansIn(chunks.textOf(ordinal), new Date(written ?? UNDATED));
    cache.set(ordinal, stated);
  }
  return stated;
}

const UNDATED = Date.UTC(2000, 0, 1);
