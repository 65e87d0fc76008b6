/** Selections over a few scored docs for the pruned lexical top-N (lexical-top-n.ts). */
import type { Scored } from './fuse';

/**
 * The `n`-th largest of `scores[doc]` over `docs` (0 when there are fewer than `n`): a min-heap of the
 * `n` best seen, O(docs × log n). Docs are read four at a time: when none of the four beats the heap's
 * least (nearly always, once the heap holds good scores), they are passed over with one test; else each
 * is offered in order as alone.
 */
export function nthLargest(scores: Float64Array, docs: ArrayLike<number>, n: number): number {
  if (docs.length < n || n < 1) return 0;
  const heap = new Float64Array(n);
  for (let i = 0; i < n; i++) heap[i] = scores[docs[i] as number] as number;
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  const length = docs.length;
  let i = n;
  for (; i + 3 < length; i += 4) {
    const least = heap[0] as number;
    if (
      (scores[docs[i] as number] as number) <= least &&
      (scores[docs[i + 1] as number] as number) <= least &&
      (scores[docs[i + 2] as number] as number) <= least &&
      (scores[docs[i + 3] as number] as number) <= least
    ) {
      continue;
    }
    for (let each = i; each < i + 4; each++) offer(heap, scores[docs[each] as number] as number);
  }
  for (; i < length; i++) offer(heap, scores[docs[i] as number] as number);
  return heap[0] as number;
}

/** Puts `score` in the min-heap in place of its least when it is larger. */
function offer(heap: Float64Array, score: number): void {
  if (score <= (heap[0] as number)) return;
  heap[0] = score;
  siftDown(heap, 0);
}

function siftDown(heap: Float64Array, index: number): void {
  let parent = index;
  for (;;) {
    const left = 2 * parent + 1;
    let least = parent;
    if (left < heap.length && (heap[left] as number) < (heap[least] as number)) least = left;
    if (left + 1 < heap.length && (heap[left + 1] as number) < (heap[least] as number)) least = left + 1;
    if (least === parent) return;
    const held = heap[parent] as number;
    heap[parent] = heap[least] as number;
    heap[least] = held;
    parent = least;
  }
}

/** The best `n` of `hits` with a positive score: higher score first, then lower ordinal (as `topKByScore`). */
export function topByScore(hits: Scored[], n: number): Scored[] {
  return hits
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
    .slice(0, n);
}
