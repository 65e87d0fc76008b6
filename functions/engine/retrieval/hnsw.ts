/**
 * HNSW (Malkov & Yashunin, 2016) approximate nearest-neighbour index over a vector segment, by dot
 * product: the memory's `acceleration` option. Layers are random (level ~ -ln(U) / ln(M)); each node
 * keeps up to `m` links per upper layer and `2m` on layer 0, chosen by the paper's neighbour heuristic
 * (a candidate is kept only if it is closer to the node than to every link already kept).
 *
 * Flat layout (serialisable as is): `levels[node]` is the node's top layer; `level0` holds `2m` slots
 * per node; a node's layer-l list (l ≥ 1) is at slot `upperStart[node] + l - 1` of `upperLinks` (`m`
 * ids per slot), where `upperStart` is the prefix sum of `levels`. Empty slots hold -1. Build and search
 * are deterministic for a given seed.
 */
import { capacity, links, prefixStarts, randomLevels, slotOffset, writeLinks } from './hnsw-layout';
import { ScoreHeap } from './score-heap';
import { rowScore, rowVector, type VectorHit, type VectorSegment } from './vector-segment';

export interface HnswOptions {
  /** Links per node on upper layers (layer 0 has twice as many); default 16. */
  m?: number;
  /** Candidate list size while building; default 100. */
  efConstruction?: number;
  /** Seed of the level generator; default 1. */
  seed?: number;
}

export interface HnswIndex {
  readonly m: number;
  readonly entryPoint: number;
  readonly levels: Uint8Array;
  readonly upperStart: Int32Array;
  readonly level0: Int32Array;
  readonly upperLinks: Int32Array;
}

export { prefixStarts } from './hnsw-layout';

const HNSW_DEFAULTS = Object.freeze({ m: 16, efConstruction: 100, seed: 1, efSearch: 80 });

type Similarity = (node: number) => number;

/** Builds the index over every row of `segment`. */
export function buildHnsw(segment: VectorSegment, options: HnswOptions = {}): HnswIndex {
  const m = options.m ?? HNSW_DEFAULTS.m;
  const levels = randomLevels(segment.count, m, options.seed ?? HNSW_DEFAULTS.seed);
  const upperStart = prefixStarts(levels);
  const index: HnswIndex = {
    m,
    entryPoint: -1,
    levels,
    upperStart,
    level0: new Int32Array(segment.count * 2 * m).fill(-1),
    upperLinks: new Int32Array(((upperStart[segment.count - 1] ?? 0) + (levels[segment.count - 1] ?? 0)) * m).fill(-1),
  };
  const vectors = Array.from({ length: segment.count }, (_, node) => rowVector(segment, node));
  const between = (a: number, b: number): number => dot(vectors[a] as Float32Array, vectors[b] as Float32Array);
  let entryPoint = -1;
  for (let node = 0; node < segment.count; node++) {
    entryPoint = insertNode(index, node, entryPoint, between, options.efConstruction ?? HNSW_DEFAULTS.efConstruction);
  }
  return { ...index, entryPoint };
}

/** Inserts `node`; returns the (possibly new) entry point. */
function insertNode(index: HnswIndex, node: number, entryPoint: number, between: (a: number, b: number) => number, ef: number): number {
  if (entryPoint < 0) return node;
  const similarity: Similarity = (other) => between(node, other);
  const nodeLevel = index.levels[node] ?? 0;
  const topLevel = index.levels[entryPoint] ?? 0;
  let nearest = entryPoint;
  for (let level = topLevel; level > nodeLevel; level--) nearest = greedyStep(index, nearest, level, similarity);
  for (let level = Math.min(nodeLevel, topLevel); level >= 0; level--) {
    const found = searchLayer(index, [nearest], level, ef, similarity);
    const chosen = selectNeighbors(found, capacity(index, level), between);
    writeLinks(
      index,
      node,
      level,
      chosen.map((hit) => hit.id),
    );
    for (const hit of chosen) linkBack(index, hit.id, node, level, between);
    nearest = found[0]?.id ?? nearest;
  }
  return nodeLevel > topLevel ? node : entryPoint;
}

/** Approximate top `k` rows for `query`, best first; `ef` ≥ k trades speed for recall. */
export function searchHnsw(
  index: HnswIndex,
  segment: VectorSegment,
  query: Float32Array,
  k: number,
  ef: number = HNSW_DEFAULTS.efSearch,
): VectorHit[] {
  if (index.entryPoint < 0 || k < 1) return [];
  const similarity: Similarity = (node) => rowScore(segment, node, query);
  let nearest = index.entryPoint;
  for (let level = index.levels[nearest] ?? 0; level > 0; level--) nearest = greedyStep(index, nearest, level, similarity);
  return searchLayer(index, [nearest], 0, Math.max(ef, k), similarity)
    .slice(0, k)
    .filter((hit) => hit.score > 0)
    .map((hit) => ({ ordinal: hit.id, score: hit.score }));
}

/** Follows the best link on `level` until no link improves. */
function greedyStep(index: HnswIndex, start: number, level: number, similarity: Similarity): number {
  let current = start;
  let best = similarity(current);
  const array = level === 0 ? index.level0 : index.upperLinks;
  const width = capacity(index, level);
  for (let improved = true; improved; ) {
    improved = false;
    const from = slotOffset(index, current, level);
    for (let slot = from; slot < from + width; slot++) {
      const neighbor = array[slot] ?? -1;
      if (neighbor < 0) break;
      const score = similarity(neighbor);
      if (score > best) [best, current, improved] = [score, neighbor, true];
    }
  }
  return current;
}

let visited = new Uint32Array(0);
let visitMark = 0;

/** The beam search of one layer: up to `ef` nodes, best first. */
function searchLayer(
  index: HnswIndex,
  starts: number[],
  level: number,
  ef: number,
  similarity: Similarity,
): Array<{ id: number; score: number }> {
  const mark = nextVisitMark(index.levels.length);
  const candidates = new ScoreHeap('max');
  const results = new ScoreHeap('min', ef + 1);
  for (const start of starts) {
    visited[start] = mark;
    const score = similarity(start);
    candidates.push(start, score);
    results.push(start, score);
  }
  const layer = { links: level === 0 ? index.level0 : index.upperLinks, width: capacity(index, level), mark, ef, similarity };
  while (candidates.size > 0) {
    if (results.size >= ef && candidates.topScore() < results.topScore()) break;
    visitNeighbors(layer, slotOffset(index, candidates.pop(), level), candidates, results);
  }
  return results.drainBestFirst();
}

/** A fresh mark for `visited`, sized for `nodes` (cleared when the marks would wrap). */
function nextVisitMark(nodes: number): number {
  if (visited.length < nodes || visitMark >= 0xfffffff0) [visited, visitMark] = [new Uint32Array(nodes), 0];
  return ++visitMark;
}

interface LayerSearch {
  readonly links: Int32Array;
  readonly width: number;
  readonly mark: number;
  readonly ef: number;
  readonly similarity: Similarity;
}

/** Scores the unvisited links of one node (from slot `from`), keeping those among the best `ef`. */
function visitNeighbors(layer: LayerSearch, from: number, candidates: ScoreHeap, results: ScoreHeap): void {
  const { links, width, mark, ef, similarity } = layer;
  for (let slot = from; slot < from + width; slot++) {
    const neighbor = links[slot] ?? -1;
    if (neighbor < 0) break;
    if (visited[neighbor] === mark) continue;
    visited[neighbor] = mark;
    const score = similarity(neighbor);
    if (results.size < ef || score > results.topScore()) {
      candidates.push(neighbor, score);
      results.push(neighbor, score);
      if (results.size > ef) results.pop();
    }
  }
}

/** The paper's heuristic: keep a candidate only if no kept link is closer to it than the base is. */
function selectNeighbors(
  found: Array<{ id: number; score: number }>,
  limit: number,
  between: (a: number, b: number) => number,
): Array<{ id: number; score: number }> {
  const chosen: Array<{ id: number; score: number }> = [];
  for (const candidate of found) {
    if (chosen.length >= limit) break;
    if (chosen.every((kept) => between(candidate.id, kept.id) < candidate.score)) chosen.push(candidate);
  }
  return chosen;
}

/** Adds `node` to `target`'s links, re-selecting by the heuristic when the list is full. */
function linkBack(index: HnswIndex, target: number, node: number, level: number, between: (a: number, b: number) => number): void {
  const current = [...links(index, target, level)];
  if (current.length < capacity(index, level)) {
    writeLinks(index, target, level, [...current, node]);
    return;
  }
  const scored = [...current, node].map((id) => ({ id, score: between(target, id) })).sort((a, b) => b.score - a.score);
  writeLinks(
    index,
    target,
    level,
    selectNeighbors(scored, capacity(index, level), between).map((hit) => hit.id),
  );
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += (a[index] as number) * (b[index] as number);
  return sum;
}
