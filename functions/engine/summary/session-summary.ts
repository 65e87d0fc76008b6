/**
 * An extractive summary of a conversation, kept up to date one batch of messages at a time without
 * reading the earlier messages again (centroid summarisation, as in MEAD: Radev et al. 2004).
 *
 * The state holds, for the whole session, each term's count and the number of sentences holding it (so
 * idf can be worked out at any time), and a pool of the `POOL_SIZE` most central sentences so far with
 * their terms. A new batch adds its terms to the counts, its sentences to the pool, and the pool is
 * scored again against the new centroid and cut back to its size. A sentence that once left the pool does
 * not come back (its text is no longer held): the summary is that of the best sentences seen while they
 * were among the best, which on the sessions we measured is the summary a full recomputation gives.
 *
 * - centroid: the `CENTROID_TERMS` terms of highest tf·idf over the session;
 * - centrality of a sentence: cosine of its tf·idf vector with the centroid (questions count half: a
 *   question is rarely what a session established);
 * - summary: up to `SUMMARY_SENTENCES` sentences picked by maximal marginal relevance (Carbonell and
 *   Goldstein 1998) over the pool, in the order they were said;
 * - key points: up to `KEY_POINTS` sentences picked for coverage: each covers the most centroid weight
 *   not yet covered by the ones before it (per square root of its length), in the order they were said.
 */
import { analyze } from '../lexical/analyzer';
import { splitSentences } from '../text/sentences';

/** One message as the summary reads it. */
export interface SummaryMessage {
  id: string;
  content: string;
}

interface PooledSentence {
  text: string;
  messageId: string;
  /** Place among every sentence of the session counted so far (the order they were said). */
  order: number;
  terms: Map<string, number>;
}

export interface SummaryState {
  /** Messages taken in. */
  messages: number;
  /** Sentences counted (the `N` of idf). */
  sentences: number;
  /** term → [count over the session, sentences holding it]. */
  terms: Map<string, [number, number]>;
  /** The most central sentences so far, best first. */
  pool: PooledSentence[];
}

export interface ExtractiveSummary {
  summary: string;
  keyPoints: string[];
}

const POOL_SIZE = 60;
const CENTROID_TERMS = 50;
const SUMMARY_SENTENCES = 3;
const SUMMARY_CHARS = 600;
const KEY_POINTS = 5;
const KEY_POINT_CHARS = 240;
/** Maximal marginal relevance: centrality against likeness to what is already picked. */
const MMR_LAMBDA = 0.7;
const MIN_TERMS = 3;
/** Sentences with fewer distinct terms than this count in proportion (a short reply rarely sums a session up). */
const FULL_TERMS = 6;
const MIN_CHARS = 20;
const MAX_CHARS = 600;
const QUESTION_FACTOR = 0.5;

export function emptySummaryState(): SummaryState {
  return { messages: 0, sentences: 0, terms: new Map(), pool: [] };
}

/** The state with `messages` taken in (the state passed is changed and returned). */
export function addToSummary(state: SummaryState, messages: readonly SummaryMessage[]): SummaryState {
  const fresh: PooledSentence[] = [];
  for (const message of messages) {
    state.messages++;
    for (const sentence of splitSentences(message.content)) {
      const terms = termCounts(sentence.text);
      if (terms.size === 0) continue;
      countTerms(state, terms);
      if (isCandidate(sentence.text, terms)) fresh.push({ text: sentence.text, messageId: message.id, order: state.sentences, terms });
      state.sentences++;
    }
  }
  const weights = idfWeights(state);
  const centroid = centroidOf(state, weights);
  const scored = [...state.pool, ...fresh].map((sentence) => ({ sentence, score: centrality(sentence, centroid, weights) }));
  scored.sort((a, b) => b.score - a.score || a.sentence.order - b.sentence.order);
  state.pool = scored.slice(0, POOL_SIZE).map((entry) => entry.sentence);
  return state;
}

/** The summary and key points of the state (empty before any sentence worth keeping). */
export function selectSummary(state: SummaryState): ExtractiveSummary {
  const weights = idfWeights(state);
  const centroid = centroidOf(state, weights);
  const scored = state.pool.map((sentence) => ({ sentence, score: centrality(sentence, centroid, weights) }));
  const summary = pickByRelevance(scored, weights).sort(byOrder);
  const keyPoints = pickByCoverage(state.pool, centroid).sort(byOrder);
  return {
    summary: summary.map((sentence) => sentence.text).join(' '),
    keyPoints: keyPoints.map((sentence) => shorten(sentence.text, KEY_POINT_CHARS)),
  };
}

/** The pool's sentences in the order they were said: what a model is shown of the whole session. */
export function centralSentences(state: SummaryState): string[] {
  return [...state.pool].sort(byOrder).map((sentence) => sentence.text);
}

const byOrder = (a: PooledSentence, b: PooledSentence): number => a.order - b.order;

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyze(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function countTerms(state: SummaryState, terms: ReadonlyMap<string, number>): void {
  for (const [term, count] of terms) {
    const entry = state.terms.get(term);
    if (entry) {
      entry[0] += count;
      entry[1]++;
    } else state.terms.set(term, [count, 1]);
  }
}

function isCandidate(text: string, terms: ReadonlyMap<string, number>): boolean {
  return terms.size >= MIN_TERMS && text.length >= MIN_CHARS && text.length <= MAX_CHARS;
}

type Weights = (term: string) => number;

/** idf(t) = ln(N / df(t)): a term of every sentence (a speaker's name) weighs nothing; 0 for a term never counted. */
function idfWeights(state: SummaryState): Weights {
  return (term) => {
    const entry = state.terms.get(term);
    return entry ? Math.log(state.sentences / entry[1]) : 0;
  };
}

/** The session's centroid: its terms of highest tf·idf, with those weights. */
function centroidOf(state: SummaryState, idf: Weights): Map<string, number> {
  const weighted = [...state.terms].map(([term, [count]]) => [term, count * idf(term)] as const);
  weighted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Map(weighted.slice(0, CENTROID_TERMS));
}

function vectorNorm(terms: ReadonlyMap<string, number>, idf: Weights): number {
  let sum = 0;
  for (const [term, count] of terms) sum += (count * idf(term)) ** 2;
  return Math.sqrt(sum);
}

function centrality(sentence: PooledSentence, centroid: ReadonlyMap<string, number>, idf: Weights): number {
  let dot = 0;
  for (const [term, count] of sentence.terms) dot += count * idf(term) * (centroid.get(term) ?? 0);
  let centroidNorm = 0;
  for (const weight of centroid.values()) centroidNorm += weight * weight;
  const norms = vectorNorm(sentence.terms, idf) * Math.sqrt(centroidNorm);
  const cosine = (norms > 0 ? dot / norms : 0) * Math.min(1, sentence.terms.size / FULL_TERMS);
  return sentence.text.trimEnd().endsWith('?') ? cosine * QUESTION_FACTOR : cosine;
}

function similarity(a: PooledSentence, b: PooledSentence, idf: Weights): number {
  let dot = 0;
  for (const [term, count] of a.terms) {
    const other = b.terms.get(term);
    if (other !== undefined) dot += count * other * idf(term) ** 2;
  }
  const norms = vectorNorm(a.terms, idf) * vectorNorm(b.terms, idf);
  return norms > 0 ? dot / norms : 0;
}

/** Maximal marginal relevance over the pool, within the summary's sentence and character limits. */
function pickByRelevance(scored: ReadonlyArray<{ sentence: PooledSentence; score: number }>, idf: Weights): PooledSentence[] {
  const picked: PooledSentence[] = [];
  let chars = 0;
  const left = scored.filter((entry) => entry.score > 0);
  while (picked.length < SUMMARY_SENTENCES && left.length > 0) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    left.forEach((entry, i) => {
      const likeness = Math.max(0, ...picked.map((other) => similarity(entry.sentence, other, idf)));
      const value = MMR_LAMBDA * entry.score - (1 - MMR_LAMBDA) * likeness;
      if (value > bestValue) [best, bestValue] = [i, value];
    });
    const [chosen] = left.splice(best, 1);
    if (!chosen) break;
    if (picked.length > 0 && chars + chosen.sentence.text.length > SUMMARY_CHARS) continue;
    picked.push(chosen.sentence);
    chars += chosen.sentence.text.length + 1;
  }
  return picked;
}

/** Greedy coverage of the centroid's weight: each pick adds the most weight not yet covered. */
function pickByCoverage(pool: readonly PooledSentence[], centroid: ReadonlyMap<string, number>): PooledSentence[] {
  const covered = new Set<string>();
  const picked: PooledSentence[] = [];
  const left = [...pool];
  while (picked.length < KEY_POINTS) {
    let best = -1;
    let bestGain = 0;
    left.forEach((sentence, i) => {
      let gain = 0;
      for (const term of sentence.terms.keys()) if (!covered.has(term)) gain += centroid.get(term) ?? 0;
      gain *= Math.min(1, sentence.terms.size / FULL_TERMS) / Math.sqrt(sentence.terms.size);
      if (gain > bestGain) [best, bestGain] = [i, gain];
    });
    const [chosen] = best < 0 ? [] : left.splice(best, 1);
    if (!chosen) break;
    for (const term of chosen.terms.keys()) covered.add(term);
    picked.push(chosen);
  }
  return picked;
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf(' ', limit - 1);
  return `${text.slice(0, cut > limit / 2 ? cut : limit - 1)}…`;
}
