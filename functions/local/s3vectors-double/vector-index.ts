/**
 * One vector index of the double: float32 vectors in one growing array (a slot each, freed slots reused),
 * their keys and metadata, and exact search: every live vector passing the filter is scored (cosine
 * distance 1 - cos, or euclidean), the `topK` nearest returned. The time that search takes is counted
 * apart, so a bench can report the double's own cost beside the client's.
 */
import type { Metadata, Predicate } from './metadata-filter';

export interface IndexSettings {
  readonly vectorBucketName: string;
  readonly indexName: string;
  readonly indexArn: string;
  readonly dimension: number;
  readonly distanceMetric: 'cosine' | 'euclidean';
  readonly nonFilterableMetadataKeys: readonly string[];
  /** Seconds since the epoch. */
  readonly creationTime: number;
}

export interface Neighbour {
  readonly key: string;
  readonly distance: number;
  readonly metadata?: Metadata;
}

export class VectorIndex {
  readonly nonFilterable: ReadonlySet<string>;
  private data: Float32Array;
  /** The norm of each slot's vector (cosine). */
  private norms: Float32Array;
  private readonly slotOf = new Map<string, number>();
  private keys: (string | undefined)[] = [];
  private metadata: (Metadata | undefined)[] = [];
  private readonly free: number[] = [];

  constructor(readonly settings: IndexSettings) {
    this.nonFilterable = new Set(settings.nonFilterableMetadataKeys);
    this.data = new Float32Array(settings.dimension * 1024);
    this.norms = new Float32Array(1024);
  }

  get size(): number {
    return this.slotOf.size;
  }

  put(key: string, values: readonly number[], metadata: Metadata | undefined): void {
    const slot = this.slotOf.get(key) ?? this.free.pop() ?? this.keys.length;
    this.ensureCapacity(slot + 1);
    const { dimension } = this.settings;
    this.data.set(values, slot * dimension);
    let sum = 0;
    for (const value of values) sum += value * value;
    this.norms[slot] = Math.sqrt(sum);
    this.keys[slot] = key;
    this.metadata[slot] = metadata;
    this.slotOf.set(key, slot);
  }

  delete(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.keys[slot] = undefined;
    this.metadata[slot] = undefined;
    this.free.push(slot);
  }

  get(key: string): { values: number[]; metadata?: Metadata } | undefined {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return undefined;
    const { dimension } = this.settings;
    return { values: Array.from(this.data.subarray(slot * dimension, (slot + 1) * dimension)), metadata: this.metadata[slot] };
  }

  /** Live keys in slot order (a stable order for listing). */
  liveKeys(): string[] {
    return this.keys.filter((key): key is string => key !== undefined);
  }

  /** The `topK` nearest live vectors passing `filter`, nearest first. */
  search(query: readonly number[], topK: number, filter: Predicate | undefined): Neighbour[] {
    const { dimension, distanceMetric } = this.settings;
    const q = Float32Array.from(query);
    let qNorm = 0;
    for (const value of q) qNorm += value * value;
    qNorm = Math.sqrt(qNorm);
    const best: { slot: number; distance: number }[] = [];
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] === undefined || (filter && !filter(this.metadata[slot]))) continue;
      const distance = distanceMetric === 'cosine' ? this.cosine(q, qNorm, slot) : this.euclidean(q, slot, dimension);
      insertBounded(best, { slot, distance }, topK);
    }
    return best.map(({ slot, distance }) => ({ key: this.keys[slot] as string, distance, metadata: this.metadata[slot] }));
  }

  private cosine(q: Float32Array, qNorm: number, slot: number): number {
    const { dimension } = this.settings;
    const base = slot * dimension;
    let dot = 0;
    for (let i = 0; i < dimension; i++) dot += (q[i] as number) * (this.data[base + i] as number);
    return 1 - dot / (qNorm * (this.norms[slot] as number));
  }

  private euclidean(q: Float32Array, slot: number, dimension: number): number {
    const base = slot * dimension;
    let sum = 0;
    for (let i = 0; i < dimension; i++) {
      const d = (q[i] as number) - (this.data[base + i] as number);
      sum += d * d;
    }
    return Math.sqrt(sum);
  }

  private ensureCapacity(slots: number): void {
    if (slots <= this.norms.length) return;
    const capacity = Math.max(slots, this.norms.length * 2);
    const data = new Float32Array(capacity * this.settings.dimension);
    data.set(this.data);
    const norms = new Float32Array(capacity);
    norms.set(this.norms);
    this.data = data;
    this.norms = norms;
  }
}

/** Keeps `best` sorted nearest first and at most `limit` long. */
function insertBounded(best: { slot: number; distance: number }[], item: { slot: number; distance: number }, limit: number): void {
  if (best.length === limit && item.distance >= (best[limit - 1] as { distance: number }).distance) return;
  let at = best.length;
  while (at > 0 && (best[at - 1] as { distance: number }).distance > item.distance) at--;
  best.splice(at, 0, item);
  if (best.length > limit) best.pop();
}
