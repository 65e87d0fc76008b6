/**
 * A model's relations for one chunk as relation candidates between the chunk's grounded mentions, plus
 * the co-occurrence links the offline extractor adds (`relations.ts`), so model-made and offline files
 * give the graph walk the same kind of edges.
 *
 * Each answered relation picks one subject and one object mention: both in the sentence the model
 * quoted when that sentence is found in the chunk, else the closest pair. Its fact (with facts on) is
 * always text of the chunk, never the model's copy: that sentence (or, when it is longer than 240
 * characters, the clause from subject to object), or for ends in different sentences the span between
 * them when short enough. Relations whose ends were not grounded, or are one mention, are dropped.
 */
import type { ParsedText } from '../../engine/graph';
import type { ChunkAnswer } from './answer-schema';
import { occurrences, sentenceAt, type ExtractedMention, type RelationCandidate } from './mention-build';

const MAX_FACT_CHARS = 240;
const MAX_CROSS_SENTENCE_CHARS = 480;
const MAX_PREDICATE_CHARS = 60;
const MAX_COOCCURRING = 12;

export interface RelationInput {
  readonly parsed: ParsedText;
  /** The chunk's mentions, in text order. */
  readonly mentions: readonly ExtractedMention[];
  /** Indexes of the mentions of an answered entity text. */
  readonly mentionsOf: (entityText: string) => readonly number[];
  readonly answer: ChunkAnswer;
  readonly facts: boolean;
}

export function groundRelations(input: RelationInput): { candidates: RelationCandidate[]; kept: number } {
  const { parsed, mentions } = input;
  const out: RelationCandidate[] = [];
  const seen = new Set<string>();
  for (const relation of input.answer.relations) {
    const predicate = normalizePredicate(relation.predicate);
    const quoted = occurrences(parsed.text, relation.sentence.trim())[0];
    const pair = pickPair(
      mentions,
      input.mentionsOf(relation.subject.trim()),
      input.mentionsOf(relation.object.trim()),
      quoted && sentenceAt(parsed, quoted.start),
    );
    if (pair === undefined || predicate === '') continue;
    const subject = mentions[pair.subject] as ExtractedMention;
    const object = mentions[pair.object] as ExtractedMention;
    const sentence = subject.sentence;
    const id = `${pair.subject}\u0000${predicate}\u0000${pair.object}\u0000${sentence}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const candidate: RelationCandidate = { kind: 'svo', subject: pair.subject, object: pair.object, predicate, sentence };
    const text = input.facts ? factText(parsed, subject, object) : undefined;
    out.push(text === undefined ? candidate : { ...candidate, fact: { text, kind: relation.kind } });
  }
  const kept = out.length;
  return { candidates: [...out, ...cooccurrences(mentions)], kept };
}

/** The best subject/object mention pair: both in the quoted sentence, else in one sentence, else closest. */
function pickPair(
  mentions: readonly ExtractedMention[],
  subjects: readonly number[],
  objects: readonly number[],
  quotedSentence: number | undefined,
): { subject: number; object: number } | undefined {
  let best: { subject: number; object: number; score: number } | undefined;
  for (const subject of subjects) {
    for (const object of objects) {
      const score = pairScore(mentions, subject, object, quotedSentence);
      if (score !== undefined && (best === undefined || score < best.score)) best = { subject, object, score };
    }
  }
  return best && { subject: best.subject, object: best.object };
}

/**
 * Lower is better: mentions outside the quoted sentence first, then sentences apart, then the subject
 * after the object; undefined when the two cannot pair (one entity, or a mention missing).
 */
function pairScore(
  mentions: readonly ExtractedMention[],
  subject: number,
  object: number,
  quotedSentence: number | undefined,
): number | undefined {
  const a = mentions[subject];
  const b = mentions[object];
  if (a === undefined || b === undefined || subject === object || a.key === b.key) return undefined;
  const outside = (a.sentence === quotedSentence ? 0 : 1) + (b.sentence === quotedSentence ? 0 : 1);
  return outside * 1_000 + Math.min(Math.abs(a.sentence - b.sentence), 99) * 10 + (a.start < b.start ? 0 : 1);
}

function factText(parsed: ParsedText, subject: ExtractedMention, object: ExtractedMention): string | undefined {
  const clause = parsed.text.slice(Math.min(subject.start, object.start), Math.max(subject.end, object.end)).trim();
  if (subject.sentence !== object.sentence) return clause.length <= MAX_CROSS_SENTENCE_CHARS ? clause : undefined;
  const sentence = parsed.sentences[subject.sentence];
  const whole = sentence === undefined ? '' : parsed.text.slice(sentence.start, sentence.end).trim();
  return whole !== '' && whole.length <= MAX_FACT_CHARS ? whole : clause;
}

function normalizePredicate(predicate: string): string {
  return predicate
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’ -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_PREDICATE_CHARS)
    .trim();
}

/** Every pair of name or phrase mentions in one sentence (at most 12 per sentence), as `relations.ts` links them. */
function cooccurrences(mentions: readonly ExtractedMention[]): RelationCandidate[] {
  const bySentence = new Map<number, number[]>();
  mentions.forEach((mention, index) => {
    if (mention.kind === 'value') return;
    const list = bySentence.get(mention.sentence) ?? [];
    if (list.length < MAX_COOCCURRING) list.push(index);
    bySentence.set(mention.sentence, list);
  });
  const out: RelationCandidate[] = [];
  for (const [sentence, linked] of bySentence) {
    for (let a = 0; a < linked.length; a++) {
      for (let b = a + 1; b < linked.length; b++) {
        out.push({
          kind: 'cooccurrence',
          subject: linked[a] as number,
          object: linked[b] as number,
          predicate: 'co-occurs with',
          sentence,
        });
      }
    }
  }
  return out;
}
