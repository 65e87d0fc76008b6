/**
 * Relations between the mentions of one parsed chunk:
 * - subject-verb-object relations from the sentence scan of `svo-scan.ts`;
 * - co-occurrence: every pair of name or phrase mentions in one sentence (values such as dates link
 *   by SVO only, so they do not become hubs), at most `MAX_COOCCURRING` mentions per sentence.
 * With facts on, each SVO relation carries its source sentence (or, when the sentence is long, the
 * clause from the subject to the object) and a kind from the ontology ("claim" for "argue" in essays).
 */
import type { ExtractedMention } from './extract-entities';
import type { ParsedSentence, ParsedText } from './nlp';
import type { OntologySchema } from './ontology';
import { SentenceScanner, type ScannedRelation } from './svo-scan';

/** A relation between two mentions of the chunk (indexes into its mention list). */
export interface RelationCandidate {
  readonly kind: 'svo' | 'cooccurrence';
  readonly subject: number;
  readonly object: number;
  readonly predicate: string;
  readonly sentence: number;
  readonly fact?: { readonly text: string; readonly kind: string };
}

export interface RelationOptions {
  readonly facts: boolean;
}

const MAX_FACT_CHARS = 240;
const MAX_COOCCURRING = 12;

/** SVO and co-occurrence relations of a chunk's mentions (given in text order). */
export function extractRelations(
  parsed: ParsedText,
  mentions: readonly ExtractedMention[],
  schema: OntologySchema,
  options: RelationOptions,
): RelationCandidate[] {
  const bySentence = new Map<number, number[]>();
  mentions.forEach((mention, index) => {
    const list = bySentence.get(mention.sentence) ?? [];
    list.push(index);
    bySentence.set(mention.sentence, list);
  });
  const out: RelationCandidate[] = [];
  for (const [sentenceIndex, indexes] of bySentence) {
    const sentence = parsed.sentences[sentenceIndex];
    if (sentence === undefined) continue;
    for (const scanned of new SentenceScanner(parsed, mentions, sentence).run(indexes)) {
      const relation: RelationCandidate = {
        kind: 'svo',
        subject: scanned.subject,
        object: scanned.object,
        predicate: scanned.predicate,
        sentence: sentenceIndex,
      };
      out.push(options.facts ? { ...relation, fact: factOf(parsed, mentions, schema, sentence, scanned) } : relation);
    }
    out.push(...cooccurrences(mentions, indexes, sentenceIndex));
  }
  return out;
}

function factOf(
  parsed: ParsedText,
  mentions: readonly ExtractedMention[],
  schema: OntologySchema,
  sentence: ParsedSentence,
  relation: ScannedRelation,
): { text: string; kind: string } {
  const subject = mentions[relation.subject] as ExtractedMention;
  const object = mentions[relation.object] as ExtractedMention;
  const whole = parsed.text.slice(sentence.start, sentence.end).trim();
  const clause = () => parsed.text.slice(Math.min(subject.start, object.start), Math.max(subject.end, object.end)).trim();
  const text = whole.length <= MAX_FACT_CHARS ? whole : clause();
  const kind = schema.factKinds.find((rule) => rule.verbs.includes(relation.verbLemma))?.kind ?? 'fact';
  return { text, kind };
}

function cooccurrences(mentions: readonly ExtractedMention[], indexes: readonly number[], sentence: number): RelationCandidate[] {
  const linked = indexes.filter((index) => mentions[index]?.kind !== 'value').slice(0, MAX_COOCCURRING);
  const out: RelationCandidate[] = [];
  for (let a = 0; a < linked.length; a++) {
    for (let b = a + 1; b < linked.length; b++) {
      out.push({ kind: 'cooccurrence', subject: linked[a] as number, object: linked[b] as number, predicate: 'co-occurs with', sentence });
    }
  }
  return out;
}
