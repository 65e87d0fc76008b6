/**
 * The grounding check of a generated answer: it must cite the numbered evidence as `[n]` (also `[1, 3]`
 * and `[2-4]`), at least once, and only items that exist. An answer that cites nothing, or an item
 * beyond the evidence, is not grounded and is not returned.
 */

export type CitationCheck = { readonly ok: true; readonly citations: number[] } | { readonly ok: false; readonly problem: string };

/** `[3]`, `[1, 2]`, `[1; 2]`, `[2-4]`, `[2–4]`: the brackets a citation may take. */
const MARKER = /\[(\s*\d+(?:\s*[-–]\s*\d+)?(?:\s*[,;]\s*\d+(?:\s*[-–]\s*\d+)?)*\s*)\]/g;
/** A range longer than this is not a citation of single items. */
const MAX_RANGE = 20;

/** The evidence items `text` cites, ascending, each once. */
export function citationsIn(text: string): number[] {
  const cited = new Set<number>();
  for (const match of text.matchAll(MARKER)) {
    for (const part of (match[1] ?? '').split(/[,;]/)) {
      const [from, to = from] = part.split(/[-–]/).map((value) => Number(value.trim()));
      if (from === undefined || to === undefined || to < from || to - from > MAX_RANGE) {
        cited.add(Number.NaN);
        continue;
      }
      for (let n = from; n <= to; n++) cited.add(n);
    }
  }
  return [...cited].sort((a, b) => a - b);
}

/** Whether `text` is an answer grounded in `count` numbered items (see the module comment). */
export function checkCitations(text: string, count: number): CitationCheck {
  if (text.trim() === '') return { ok: false, problem: 'empty answer' };
  const citations = citationsIn(text);
  if (citations.length === 0) return { ok: false, problem: 'the answer cites no evidence item' };
  const outside = citations.filter((n) => !(Number.isInteger(n) && n >= 1 && n <= count));
  if (outside.length > 0) {
    const shown = outside.map((n) => (Number.isNaN(n) ? 'a malformed range' : `[${n}]`)).join(', ');
    return { ok: false, problem: `the answer cites ${shown}, outside the ${count} evidence items` };
  }
  return { ok: true, citations };
}
