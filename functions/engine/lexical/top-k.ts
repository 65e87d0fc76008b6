/** Top-k selection over a dense score array with a binary min-heap of size k. */

/**
 * The at most `k` ordinals with a positive score, best first: higher score, then lower ordinal (the
 * deterministic tie-break). O(n log k).
 */
export function topKByScore(scores: Float64Array, k: number): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => {
    const scoreA = scores[a] ?? 0;
    const scoreB = scores[b] ?? 0;
    return scoreA < scoreB || (scoreA === scoreB && a > b);
  };
  if (k < 1) return heap;
  // what a doc must score above to enter: positive until the heap is full, then above its worst. Docs come
  // in ascending order, so one tying the worst loses the tie-break and is passed over like a lower one.
  let floor = 0;
  for (let doc = 0; doc < scores.length; doc++) {
    const score = scores[doc] ?? 0;
    if (score <= floor) continue;
    if (heap.length < k) {
      heap.push(doc);
      siftUp(heap, heap.length - 1, worse);
      if (heap.length === k) floor = scores[heap[0] ?? 0] ?? 0;
    } else {
      heap[0] = doc;
      siftDown(heap, 0, worse);
      floor = scores[heap[0] ?? 0] ?? 0;
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

type Worse = (a: number, b: number) => boolean;

function siftUp(heap: number[], index: number, worse: Worse): void {
  let child = index;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!worse(heap[child] ?? 0, heap[parent] ?? 0)) return;
    swap(heap, child, parent);
    child = parent;
  }
}

function siftDown(heap: number[], index: number, worse: Worse): void {
  let parent = index;
  for (;;) {
    const left = 2 * parent + 1;
    const right = left + 1;
    let worst = parent;
    if (left < heap.length && worse(heap[left] ?? 0, heap[worst] ?? 0)) worst = left;
    if (right < heap.length && worse(heap[right] ?? 0, heap[worst] ?? 0)) worst = right;
    if (worst === parent) return;
    swap(heap, parent, worst);
    parent = worst;
  }
}

function swap(heap: number[], a: number, b: number): void {
  const held = heap[a] ?? 0;
  heap[a] = heap[b] ?? 0;
  heap[b] = held;
}
