/**
 * What a reranker answered, checked before retrieval trusts it: one relevance per text at most, every
 * index an integer in range and named once, every score a finite number. Anything else is a
 * `RerankerError` (the fused order then stands).
 */
import { RerankerError, type Relevance } from '../../core/reranking/ports';

/** `results` as relevances, best first; `indexOf` and `scoreOf` read one result of the model's own shape. */
export function checkedRelevance(
  results: unknown,
  texts: number,
  source: string,
  read: { index: (result: Record<string, unknown>) => unknown; score: (result: Record<string, unknown>) => unknown },
): Relevance[] {
  if (!Array.isArray(results)) throw new RerankerError(`${source} answered without a results array`);
  if (results.length > texts) throw new RerankerError(`${source} answered ${results.length} results for ${texts} documents`);
  const seen = new Set<number>();
  const relevance = results.map((result: unknown, position) => {
    const fields = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    const index = read.index(fields);
    const score = read.score(fields);
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= texts || seen.has(index)) {
      throw new RerankerError(`${source} answered result ${position} with index ${String(index)} (documents 0-${texts - 1}, each once)`);
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new RerankerError(`${source} answered result ${position} without a numeric relevance score`);
    }
    seen.add(index);
    return { index, score };
  });
  return relevance.sort((a, b) => b.score - a.score);
}
