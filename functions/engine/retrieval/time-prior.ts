/**
 * Time in queries: a prior over chunks that GET /memory/ multiplies fused scores by (1 + prior), so a
 * query that names a time ("last May", "in 2023", "yesterday") ranks sources from that time higher, and
 * one that asks for a time ("When did…") ranks sources that state one higher. Parameter-free: each part
 * is in [0, 1] and doubles a score at most (closeness to the named time: 1 inside it, one half a
 * span-length away; stating a time: 1 or 0), the two multiply. A query with neither has no prior, and
 * ranking is unchanged.
 */
import { asksForTime, closeness, type TimeSpan, timeSpansIn } from '../text/time-expressions';
import type { RetrievalIndex } from './retrieval-index';

/** The times each chunk's own text states, resolved against its own time, worked out once per chunk of an index. */
const statedCache = new WeakMap<RetrievalIndex, Map<number, readonly TimeSpan[]>>();

/**
 * The prior for `query` over `index`, or undefined when the query neither names nor asks for a time.
 * `timeOf` is a chunk's time (a message's `createdAt`), undefined when it has none; relative
 * expressions of the query resolve against `reference` (the conversation's latest message, or now), a
 * chunk's against its own time. A chunk is as close to a named time as the closer of when it was
 * written and what it says ("we went camping last week", written on 27 June, is of mid June).
 */
export function queryTimePrior(
  index: RetrievalIndex,
  query: string,
  reference: Date,
  timeOf: (ordinal: number) => number | undefined,
): ((ordinal: number) => number) | undefined {
  const named = timeSpansIn(query, reference);
  const asks = asksForTime(query);
  if (named.length === 0 && !asks) return undefined;
  return (ordinal) => {
    const written = timeOf(ordinal);
    const stated = statedTimes(index, ordinal, written);
    let near = 0;
    if (named.length > 0 && written !== undefined) {
      near = Math.max(closeness(named, { start: written, end: written }), ...stated.map((span) => closeness(named, span)));
    }
    const states = asks && stated.length > 0 ? 1 : 0;
    return (1 + near) * (1 + states) - 1;
  };
}

function statedTimes(index: RetrievalIndex, ordinal: number, written: number | undefined): readonly TimeSpan[] {
  let cache = statedCache.get(index);
  if (!cache) statedCache.set(index, (cache = new Map()));
  let stated = cache.get(ordinal);
  if (stated === undefined) {
    // a chunk without a time of its own: what it states still counts as stating a time, not as when
    stated = timeSpansIn(index.chunks.texts.at(ordinal) ?? '', new Date(written ?? UNDATED));
    cache.set(ordinal, stated);
  }
  return stated;
}

const UNDATED = Date.UTC(2000, 0, 1);
