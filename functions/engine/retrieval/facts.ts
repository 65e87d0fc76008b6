/**
 * Supporting facts for `facts=true`: exactly three short statements that back the answer.
 *
 * Candidates, best first by `relevance + 0.3 × provenance`:
 * 1. the memory's own facts (from fact extraction), when it has any: relevance to the query
 *    (sentence-scorer.ts), provenance = the relative score of the payload item their chunk or file
 *    is in (0 when it is not retrieved). Facts of retrieved chunks come first; the others are scored
 *    only when those are fewer than three (a memory may hold many thousands of facts);
 * 2. then, to fill up to three, sentences of the best ten payload items, provenance = their item's
 *    relative score. Sentences shorter than 25 or longer than 600 characters are used last.
 * Duplicates (same words, or ≥ 80% shared 5-grams) are skipped. Fewer than three come back only when
 * the memory's facts and the retrieved text hold fewer than three distinct statements.
 */
import { splitSentences } from '../text/sentences';
import { isNearDuplicate, type PayloadItem, wordShingles } from './dedup';
import { type QueryModel, textRelevance } from './sentence-scorer';

/** A fact of the memory, with where it came from and when it held, when known. */
export interface MemoryFact {
  content: string;
  chunkId?: string;
  fileId?: string;
  validFrom?: string;
  validTo?: string | null;
  sourceId?: string;
}

/** A chosen fact: a memory fact as given, or a sentence of a payload item with the chunk it comes from. */
export type SupportingFact = MemoryFact;

export interface FactsInput {
  model: QueryModel;
  items: readonly PayloadItem[];
  /** Chunk id of each ordinal (to match facts to retrieved chunks). */
  chunkIdOf: (ordinal: number) => string;
  memoryFacts?: readonly MemoryFact[];
  count?: number;
  /**
   * Whether a sentence of this chunk (its id and ordinal) may be a fact (written after `asOf`, or stating what
   * was replaced by then: no); all when absent.
   */
  sentenceHolds?: (chunkId: string, sentence: string, ordinal: number) => boolean;
}

interface Candidate {
  content: string;
  score: number;
  /** Lower tiers are used only when higher ones run out. */
  tier: number;
  origin: Omit<MemoryFact, 'content'>;
}

const PROVENANCE_WEIGHT = 0.3;
/** Sentences are taken from at most this many of the best payload items. */
const SENTENCE_ITEMS = 10;
const FACT_COUNT = 3;

/** The supporting facts, best first. */
export function supportingFacts(input: FactsInput): SupportingFact[] {
  const count = input.count ?? FACT_COUNT;
  const candidates = [...factCandidates(input), ...sentenceCandidates(input)];
  candidates.sort((a, b) => a.tier - b.tier || b.score - a.score);
  const chosen: Array<{ fact: SupportingFact; shingles: Set<number> }> = [];
  for (const candidate of candidates) {
    if (chosen.length >= count) break;
    const shingles = wordShingles(candidate.content);
    if (chosen.some((taken) => isNearDuplicate(taken.shingles, shingles))) continue;
    chosen.push({ fact: { ...candidate.origin, content: candidate.content }, shingles });
  }
  return chosen.map(({ fact }) => fact);
}

function factCandidates(input: FactsInput): Candidate[] {
  const provenanceOf = provenanceLookup(input);
  const linked: Candidate[] = [];
  const others: MemoryFact[] = [];
  for (const fact of input.memoryFacts ?? []) {
    if (fact.content.trim().length === 0) continue;
    const provenance = provenanceOf(fact);
    if (provenance > 0) linked.push(scoredFact(input, fact, provenance));
    else others.push(fact);
  }
  // Facts of the retrieved chunks usually suffice; scoring every other fact is the slow path.
  if (linked.length >= (input.count ?? FACT_COUNT)) return linked;
  return [...linked, ...others.map((fact) => scoredFact(input, fact, 0))];
}

function scoredFact(input: FactsInput, fact: MemoryFact, provenance: number): Candidate {
  const score = textRelevance(input.model, fact.content) + PROVENANCE_WEIGHT * provenance;
  const { content, ...origin } = fact;
  return { content: content.trim(), score, tier: score > 0 ? 0 : 2, origin };
}

/** A fact's provenance: the relative score of the payload item holding its chunk (or file), else 0. */
function provenanceLookup(input: FactsInput): (fact: MemoryFact) => number {
  const best = input.items[0]?.score ?? 0;
  const byChunk = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const item of input.items) {
    const relative = best > 0 ? item.score / best : 0;
    for (const ordinal of item.ordinals) {
      const chunkId = input.chunkIdOf(ordinal);
      byChunk.set(chunkId, Math.max(byChunk.get(chunkId) ?? 0, relative));
    }
    byFile.set(item.fileId, Math.max(byFile.get(item.fileId) ?? 0, relative));
  }
  return (fact) => (fact.chunkId ? byChunk.get(fact.chunkId) : undefined) ?? (fact.fileId ? (byFile.get(fact.fileId) ?? 0) : 0);
}

function sentenceCandidates(input: FactsInput): Candidate[] {
  const best = input.items[0]?.score ?? 0;
  return input.items.slice(0, SENTENCE_ITEMS).flatMap((item) => {
    const provenance = best > 0 ? item.score / best : 0;
    const ordinal = item.ordinals[0] ?? 0;
    const chunkId = input.chunkIdOf(ordinal);
    const holds = input.sentenceHolds;
    const sentences = splitSentences(item.content).filter((sentence) => !holds || holds(chunkId, sentence.text, ordinal));
    return sentences.map((sentence) => {
      const wellSized = sentence.text.length >= 25 && sentence.text.length <= 600;
      const score = textRelevance(input.model, sentence.text) + PROVENANCE_WEIGHT * provenance;
      return { content: sentence.text, score, tier: wellSized ? 1 : 3, origin: { chunkId, fileId: item.fileId } };
    });
  });
}
