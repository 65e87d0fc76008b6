/**
 * Retrieval metrics over ranked document ids: BEIR's nDCG@k (graded gains, log2 discount, ideal from
 * the judged gains) and Recall@k (share of a query's gold documents in the top k).
 */

/** nDCG@k of `ranked` against `gold` (doc id → gain). */
export function ndcgAt(ranked: readonly string[], gold: ReadonlyMap<string, number>, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, rank) => sum + (gold.get(id) ?? 0) / Math.log2(rank + 2), 0);
  const ideal = [...gold.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, gain, rank) => sum + gain / Math.log2(rank + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Recall@k: the share of gold documents among the first `k` of `ranked` (1 when there is no gold). */
export function recallAt(ranked: readonly string[], gold: ReadonlyMap<string, number>, k: number): number {
  if (gold.size === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of gold.keys()) if (top.has(id)) found++;
  return found / gold.size;
}

/** The mean of `values` (0 for none). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Doc ids in order of first appearance: the document ranking induced by a chunk ranking. */
export function distinctInOrder(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
