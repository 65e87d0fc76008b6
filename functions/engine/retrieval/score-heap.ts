/**
 * A binary heap of (id, score) pairs in typed arrays, ordered so the top is the lowest score
 * (`'min'`) or the highest (`'max'`). Used by the HNSW search for its candidate and result sets.
 */
export class ScoreHeap {
  private ids: Int32Array;
  private scores: Float64Array;
  private length = 0;

  constructor(
    private readonly order: 'min' | 'max',
    capacity = 64,
  ) {
    this.ids = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  get size(): number {
    return this.length;
  }

  /** Id at the top (lowest score for 'min', highest for 'max'); -1 when empty. */
  topId(): number {
    return this.length > 0 ? (this.ids[0] ?? -1) : -1;
  }

  /** Score at the top; NaN when empty. */
  topScore(): number {
    return this.length > 0 ? (this.scores[0] ?? Number.NaN) : Number.NaN;
  }

  push(id: number, score: number): void {
    if (this.length === this.ids.length) this.grow();
    let child = this.length++;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(score, this.scores[parent] ?? 0)) break;
      this.ids[child] = this.ids[parent] ?? 0;
      this.scores[child] = this.scores[parent] ?? 0;
      child = parent;
    }
    this.ids[child] = id;
    this.scores[child] = score;
  }

  /** Removes the top entry and returns its id (-1 when empty). */
  pop(): number {
    if (this.length === 0) return -1;
    const top = this.ids[0] ?? -1;
    const last = --this.length;
    const id = this.ids[last] ?? 0;
    const score = this.scores[last] ?? 0;
    let parent = 0;
    for (let child = this.leadingChild(parent, last); child >= 0 && this.before(this.scores[child] ?? 0, score); ) {
      this.ids[parent] = this.ids[child] ?? 0;
      this.scores[parent] = this.scores[child] ?? 0;
      parent = child;
      child = this.leadingChild(parent, last);
    }
    this.ids[parent] = id;
    this.scores[parent] = score;
    return top;
  }

  /** The child of `parent` that should be above the other, among the first `length` slots; -1 for a leaf. */
  private leadingChild(parent: number, length: number): number {
    const child = 2 * parent + 1;
    if (child >= length) return -1;
    return child + 1 < length && this.before(this.scores[child + 1] ?? 0, this.scores[child] ?? 0) ? child + 1 : child;
  }

  /** All entries, best (highest score) first; the heap is left empty. */
  drainBestFirst(): Array<{ id: number; score: number }> {
    const out: Array<{ id: number; score: number }> = [];
    while (this.length > 0) {
      const score = this.topScore();
      out.push({ id: this.pop(), score });
    }
    return this.order === 'min' ? out.reverse() : out;
  }

  clear(): void {
    this.length = 0;
  }

  private before(a: number, b: number): boolean {
    return this.order === 'min' ? a < b : a > b;
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    const scores = new Float64Array(this.scores.length * 2);
    ids.set(this.ids);
    scores.set(this.scores);
    this.ids = ids;
    this.scores = scores;
  }
}
