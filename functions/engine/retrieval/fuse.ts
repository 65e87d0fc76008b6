/**
 * Fusion of ranked candidate lists (lexical, title links, semantic, graph) into one ranking.
 *
 * - Weighted (default): a candidate's score is the sum over lists of `weight × normalised score`.
 *   `normalize: 'max'` divides by the list's best score (BM25 and PPR scores have no fixed scale);
 *   `'none'` keeps scores that already have one (cosine similarity, link feedback). A list may give
 *   `scoreOf` so candidates found only by other lists still get their exact score in it (the lexical
 *   and semantic sides can score any chunk); otherwise they count 0 there.
 * - Reciprocal rank (Cormack et al. 2009): `Σ weight / (k + rank)`, rank from 1.
 * On the dev splits weighted fusion beat RRF clearly: the offline semantic side is much weaker than
 * the lexical one, and RRF gives its ranks equal say (bench/quality/README.md).
 * Ties break on the lower ordinal, so results are deterministic.
 */

export interface Scored {
  ordinal: number;
  score: number;
}

export interface RankedList {
  name: string;
  weight: number;
  /** Best first. */
  hits: readonly Scored[];
  normalize: 'max' | 'none';
  /** Score of any ordinal in this list's terms (before normalisation); absent ordinals count 0 without it. */
  scoreOf?: (ordinal: number) => number;
}

/** One fused candidate with each list's contribution (for explanation and tests). */
export interface FusedHit extends Scored {
  parts: Record<string, number>;
}

/** Weighted-sum fusion over the union of the lists' hits; the best `limit`, best first. */
export function fuseWeighted(lists: readonly RankedList[], limit: number): FusedHit[] {
  const active = lists.filter((list) => list.weight !== 0 && list.hits.length > 0);
  const candidates = new Set<number>();
  for (const list of active) for (const hit of list.hits) candidates.add(hit.ordinal);
  const lookups = active.map((list) => ({ list, scale: scaleOf(list), known: new Map(list.hits.map((hit) => [hit.ordinal, hit.score])) }));
  const fused: FusedHit[] = [];
  for (const ordinal of candidates) {
    const parts: Record<string, number> = {};
    let score = 0;
    for (const { list, scale, known } of lookups) {
      const raw = known.get(ordinal) ?? list.scoreOf?.(ordinal) ?? 0;
      const part = list.weight * scale * Math.max(0, raw);
      parts[list.name] = part;
      score += part;
    }
    fused.push({ ordinal, score, parts });
  }
  return bestFirst(fused, limit);
}

/** Reciprocal-rank fusion: `Σ weight / (k + rank)` over the lists where a candidate appears. */
export function fuseReciprocalRank(lists: readonly RankedList[], limit: number, k = 60): FusedHit[] {
  const byOrdinal = new Map<number, FusedHit>();
  for (const list of lists) {
    if (list.weight === 0) continue;
    list.hits.forEach((hit, rank) => {
      const entry = byOrdinal.get(hit.ordinal) ?? { ordinal: hit.ordinal, score: 0, parts: {} };
      const part = list.weight / (k + rank + 1);
      entry.parts[list.name] = part;
      entry.score += part;
      byOrdinal.set(hit.ordinal, entry);
    });
  }
  return bestFirst([...byOrdinal.values()], limit);
}

function scaleOf(list: RankedList): number {
  if (list.normalize === 'none') return 1;
  const best = list.hits.reduce((top, hit) => Math.max(top, hit.score), 0);
  return best > 0 ? 1 / best : 0;
}

function bestFirst(hits: FusedHit[], limit: number): FusedHit[] {
  return hits
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
    .slice(0, Math.max(0, limit));
}
