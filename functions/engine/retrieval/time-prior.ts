/**
 * Time in queries: a prior over chunks that GET /memory/ multiplies fused scores by (1 + prior), so a
 * query that names a time ("last May", "in 2023", "yesterday") ranks sources from that time higher, and
 * one that asks for a time ("When did…") ranks sources that state one higher. Parameter-free: each part
 * is in [0, 1] and doubles a score at most (closeness to the named time: 1 inside it, one half a
 * span-length away; stating a time: 1 or 0), the two multiply. A query with neither has no prior, and
 * ranking is unchanged.
 */
import { asksForTime, closeness, timeSpansIn } from '../text/time-expressions';
import type { RetrievalIndex } from './retrieval-index';

/** Whether each chunk's own text states a time, worked out once per chunk of an index. */
const statesTimeCache = new WeakMap<RetrievalIndex, Map<number, boolean>>();

/**
 * The prior for `query` over `index`, or undefined when the query neither names nor asks for a time.
 * `timeOf` is a chunk's time (a message's `createdAt`), undefined when it has none; relative
 * expressions resolve against `reference` (the conversation's latest message, or now).
 */
export function queryTimePrior(
  index: RetrievalIndex,
  query: string,
  reference: Date,
  timeOf: (ordinal: number) => number | undefined,
): ((ordinal: number) => number) | undefined {
  const spans = timeSpansIn(query, reference);
  const asks = asksForTime(query);
  if (spans.length === 0 && !asks) return undefined;
  return (ordinal) => {
    const time = spans.length > 0 ? timeOf(ordinal) : undefined;
    const near = time === undefined ? 0 : closeness(spans, time);
    const states = asks && statesTime(index, ordinal) ? 1 : 0;
    return (1 + near) * (1 + states) - 1;
  };
}

function statesTime(index: RetrievalIndex, ordinal: number): boolean {
  let cache = statesTimeCache.get(index);
  if (!cache) statesTimeCache.set(index, (cache = new Map()));
  let states = cache.get(ordinal);
  if (states === undefined) {
    // any reference will do: only whether the text names a time matters
    states = timeSpansIn(index.chunks.texts[ordinal] ?? '', STATES_REFERENCE).length > 0;
    cache.set(ordinal, states);
  }
  return states;
}

const STATES_REFERENCE = new Date(Date.UTC(2000, 0, 1));
