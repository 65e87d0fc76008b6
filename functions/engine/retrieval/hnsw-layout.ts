/**
 * The flat link layout of an HNSW index (see hnsw.ts): list capacities, slot offsets, reading and
 * writing a node's links, and the seeded level generator.
 */
import type { HnswIndex } from './hnsw';

/** Slots of a list on `level`: 2m on layer 0, m above. */
export function capacity(index: HnswIndex, level: number): number {
  return level === 0 ? 2 * index.m : index.m;
}

/** Where `node`'s list on `level` starts, in `level0` (layer 0) or `upperLinks` (above). */
export function slotOffset(index: HnswIndex, node: number, level: number): number {
  return level === 0 ? node * 2 * index.m : ((index.upperStart[node] ?? 0) + level - 1) * index.m;
}

/** The ids linked from `node` on `level`. */
export function* links(index: HnswIndex, node: number, level: number): Generator<number> {
  const array = level === 0 ? index.level0 : index.upperLinks;
  const from = slotOffset(index, node, level);
  for (let slot = from; slot < from + capacity(index, level); slot++) {
    const id = array[slot] ?? -1;
    if (id < 0) return;
    yield id;
  }
}

export function writeLinks(index: HnswIndex, node: number, level: number, ids: readonly number[]): void {
  const array = level === 0 ? index.level0 : index.upperLinks;
  const from = slotOffset(index, node, level);
  for (let slot = 0; slot < capacity(index, level); slot++) array[from + slot] = ids[slot] ?? -1;
}

/** Top layer of each node, from a seeded generator (mulberry32). */
export function randomLevels(count: number, m: number, seed: number): Uint8Array {
  const levels = new Uint8Array(count);
  let state = seed >>> 0;
  const scale = 1 / Math.log(m);
  for (let node = 0; node < count; node++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    const uniform = (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
    levels[node] = Math.min(15, Math.floor(-Math.log(uniform) * scale));
  }
  return levels;
}

/** Prefix sums of `levels`: each node's first slot in `upperLinks`. */
export function prefixStarts(levels: Uint8Array): Int32Array {
  const starts = new Int32Array(levels.length);
  for (let node = 1; node < levels.length; node++) starts[node] = (starts[node - 1] ?? 0) + (levels[node - 1] ?? 0);
  return starts;
}
