/**
 * Query-focused extracts for `assisted=true` without a model: each payload item is cut down to the
 * sentences that answer the query, with the context needed to read them.
 *
 * Sentences are scored by relevance (sentence-scorer.ts); kept are the best one and up to two more
 * scoring at least 60% of it, in text order. A kept sentence that leans on the one before it (opens
 * with a pronoun, demonstrative or connective: "It", "This", "However", ...) or is very short brings
 * its predecessor along. Non-adjacent runs are joined with " … ". The document title is put in front
 * when the text does not start with it. An item with no relevant sentence keeps its first two.
 */
import { splitSentences } from '../text/sentences';
import { type QueryModel, textRelevance } from './sentence-scorer';

const KEEP_RATIO = 0.6;
const MAX_SENTENCES = 3;
const SHORT_SENTENCE = 40;
const LEANS_ON_PREVIOUS =
  /^(?:it|its|this|these|that|those|they|them|their|he|she|his|her|such|however|but|thus|therefore|hence|also|moreover|furthermore|in addition|in contrast|as a result|consequently|similarly|here|there|the latter|the former)\b/i;

/** The extract of `text` for the query behind `model`. */
export function queryFocusedExtract(model: QueryModel, text: string, title = ''): string {
  const sentences = splitSentences(text);
  if (sentences.length === 0) return withTitle(text, title);
  const scores = sentences.map((sentence) => textRelevance(model, sentence.text));
  const keep = chooseSentences(scores);
  for (const position of [...keep]) {
    const sentence = sentences[position]?.text ?? '';
    if (position > 0 && (LEANS_ON_PREVIOUS.test(sentence) || sentence.length < SHORT_SENTENCE)) keep.add(position - 1);
  }
  const ordered = [...keep].sort((a, b) => a - b);
  const parts: string[] = [];
  ordered.forEach((position, at) => {
    const gap = at > 0 && position !== (ordered[at - 1] ?? -2) + 1;
    parts.push(`${gap ? '… ' : ''}${sentences[position]?.text ?? ''}`);
  });
  return withTitle(parts.join(' '), title);
}

/** Positions of the best sentence and up to two more scoring ≥ 60% of it; the first two if none scores. */
function chooseSentences(scores: readonly number[]): Set<number> {
  const best = Math.max(...scores);
  if (!(best > 0)) return new Set(scores.length > 1 ? [0, 1] : [0]);
  const ranked = scores
    .map((score, position) => ({ score, position }))
    .filter((entry) => entry.score >= KEEP_RATIO * best)
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, MAX_SENTENCES);
  return new Set(ranked.map((entry) => entry.position));
}

function withTitle(extract: string, title: string): string {
  if (!title || extract.startsWith(title)) return extract;
  return `${title}: ${extract}`;
}
