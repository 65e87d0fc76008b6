/**
 * EXPERIMENT (#28, measured and reverted): pseudo-relevance feedback over the terms, or the capitalised
 * names, of the best lexical chunks' own texts, into other files (sessions) only. Toggled by environment
 * variables for the measurement: XW (fusion weight; 0 = off), XF (feedback chunks, 3), XT (terms kept, 10),
 * XM=names (names only), XSAME=1 (allow the feedback chunks' own sessions).
 */
import { analyzeInOne } from '../lexical/analyzer';
import type { LexicalSegment } from '../lexical/segment';
import { addBm25Scores, type FieldParams, termIdf } from './lexical-scorer';
import type { Scored } from './fuse';

export interface ExpansionInput {
  segment: LexicalSegment;
  firstPass: readonly Scored[];
  feedbackChunks: number;
  queryTerms: ReadonlySet<string>;
  textOf: (ordinal: number) => string;
  params: FieldParams;
  mode: 'names' | 'terms';
  maxTerms: number;
}

const NAME = /(?<=[\p{L}\p{N},;:'"’)] )\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*)*/gu;

function expansionTerms(input: ExpansionInput): Map<string, number> {
  const best = input.firstPass[0]?.score ?? 0;
  const weights = new Map<string, number>();
  if (best <= 0) return weights;
  for (const source of input.firstPass.slice(0, input.feedbackChunks)) {
    const relative = source.score / best;
    const text = input.textOf(source.ordinal).replace(/^[^:]{1,40}: /, '');
    const pieces = input.mode === 'names' ? [...text.matchAll(NAME)].map((m) => m[0]) : [text];
    const terms = new Set(pieces.flatMap((piece) => analyzeInOne(piece, input.segment.analyzer, input.segment.languages)));
    for (const term of terms) if (!input.queryTerms.has(term)) weights.set(term, (weights.get(term) ?? 0) + relative);
  }
  return weights;
}

export function expansionScores(input: ExpansionInput, exclude: ReadonlySet<number>): Map<number, number> {
  const terms = expansionTerms(input);
  const idf = (term: string) => termIdf(input.segment, term, 1);
  const ranked = [...terms].sort((a, b) => b[1] * idf(b[0]) - a[1] * idf(a[0])).slice(0, input.maxTerms);
  const scores = addBm25Scores(input.segment, new Map(ranked), input.params);
  const out = new Map<number, number>();
  scores.forEach((score, ordinal) => {
    if (score > 0 && !exclude.has(ordinal)) out.set(ordinal, score);
  });
  return out;
}
