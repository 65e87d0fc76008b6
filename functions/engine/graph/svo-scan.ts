/**
 * The subject-verb-object scan of one sentence (used by `relations.ts`), left to right:
 * - a verb group is a run of verbs and auxiliaries (with "not", "to", and adverbs inside); its text
 *   is the verbs without auxiliaries, lowercase ("was born" → "born"), or the auxiliaries alone ("is");
 * - its subject is the mention right before it (adverbs skipped), unless that mention follows a
 *   preposition ("In 1867, Curie…") or is a value (dates are never subjects); after "which/who/that" the mention right before the pronoun (or nobody); after
 *   "and" or a comma the current subject; after a noun that is not a mention nobody (the real subject
 *   was not extracted), except a participle after "X is a journal published by…" keeps X;
 * - each mention after the verb within `MAX_GAP` tokens (no comma) is an object; the words between
 *   (without determiners, pronouns and punctuation) join the predicate ("became part of"); an object
 *   may follow the previous object across a short prepositional gap ("won the Prize in 1903 with
 *   Pierre Curie" → "won with"); lists ("A, B and C") share the predicate;
 * - ';', ':', parentheses and dashes end a clause.
 */
import type { ExtractedMention } from './extract-entities';
import type { ParsedSentence, ParsedText, ParsedToken } from './nlp';

/** An SVO relation between two mentions (indexes into the chunk's mention list). */
export interface ScannedRelation {
  readonly subject: number;
  readonly object: number;
  readonly predicate: string;
  readonly verbLemma: string;
}

interface VerbGroup {
  readonly text: string;
  readonly lemma: string;
  readonly end: number;
}

const MAX_GAP = 6;
const CHAIN_GAP = 3;
const MAX_PREDICATE_WORDS = 6;
const CHAIN_TAGS = new Set(['ADP', 'DET', 'ADJ', 'NUM']);
const GAP_SKIPPED_TAGS = new Set(['DET', 'PRON', 'PUNCT', 'SYM', 'SPACE', 'CCONJ']);
const CLAUSE_BREAKS = new Set([';', ':', '(', ')', '—', '–', '[', ']']);
const RELATIVE_PRONOUNS = new Set(['which', 'who', 'that', 'whom', 'whose']);
const KEPT_ADVERBS = new Set(['not', 'never', "n't"]);

export class SentenceScanner {
  private subject: number | undefined;
  private verb: VerbGroup | undefined;
  private objectsSinceVerb = 0;
  private lastObject: { end: number; predicate: string } | undefined;
  private readonly mentionOf = new Map<number, number>();
  private readonly found: ScannedRelation[] = [];

  constructor(
    private readonly parsed: ParsedText,
    private readonly mentions: readonly ExtractedMention[],
    private readonly sentence: ParsedSentence,
  ) {}

  /** Scans the sentence holding the mentions `indexes`. */
  run(indexes: readonly number[]): ScannedRelation[] {
    for (const index of indexes) {
      const mention = this.mentions[index] as ExtractedMention;
      for (let at = mention.tokenStart; at < mention.tokenEnd; at++) this.mentionOf.set(at, index);
    }
    const { tokens } = this.parsed;
    let at = this.sentence.tokenStart;
    while (at < this.sentence.tokenEnd) {
      const mention = this.mentionOf.get(at);
      const token = tokens[at] as ParsedToken;
      if (mention !== undefined) at = this.onMention(mention);
      else if (CLAUSE_BREAKS.has(token.text)) at = this.onBreak(at);
      else if ((token.pos === 'VERB' || token.pos === 'AUX') && !isCompoundPart(tokens, at)) at = this.onVerb(at);
      else at++;
    }
    return this.found;
  }

  private onMention(index: number): number {
    const mention = this.mentions[index] as ExtractedMention;
    if (this.verb === undefined) {
      const candidate = mention.kind !== 'value' && (!this.isOblique(mention.tokenStart) || this.subject === undefined);
      if (candidate) this.subject = index;
    } else {
      this.objectsSinceVerb++;
      const predicate = this.objectPredicate(mention.tokenStart);
      if (predicate !== undefined && this.subject !== undefined && this.subject !== index) {
        this.found.push({ subject: this.subject, object: index, predicate, verbLemma: this.verb.lemma });
      }
      if (predicate !== undefined) this.lastObject = { end: mention.tokenEnd, predicate };
    }
    return mention.tokenEnd;
  }

  private onBreak(at: number): number {
    this.subject = undefined;
    this.verb = undefined;
    this.lastObject = undefined;
    this.objectsSinceVerb = 0;
    return at + 1;
  }

  private onVerb(at: number): number {
    const group = readVerbGroup(this.parsed.tokens, at, this.sentence.tokenEnd, (index) => this.mentionOf.has(index));
    this.subject = this.subjectBefore(at);
    this.verb = group;
    this.objectsSinceVerb = 0;
    this.lastObject = undefined;
    return group.end;
  }

  private subjectBefore(verbStart: number): number | undefined {
    const { tokens } = this.parsed;
    let at = verbStart - 1;
    while (at >= this.sentence.tokenStart && tokens[at]?.pos === 'ADV') at--;
    const token = tokens[at];
    if (at < this.sentence.tokenStart || token === undefined) return this.subject;
    const mention = this.mentionOf.get(at);
    if (mention !== undefined) return this.subjectFromMention(mention);
    if (RELATIVE_PRONOUNS.has(token.normal)) return this.mentionEndingAt(at - 1);
    if (token.pos === 'CCONJ' || token.text === ',') return this.subject;
    const afterCopula = this.verb?.lemma === 'be' && this.objectsSinceVerb === 0 && token.pos === 'NOUN';
    return afterCopula ? this.subject : undefined;
  }

  /** A mention right before the verb is its subject, unless it is a value or oblique (then the clause's subject stays). */
  private subjectFromMention(mention: number): number | undefined {
    const before = this.mentions[mention] as ExtractedMention;
    const oblique = before.kind === 'value' || this.isOblique(before.tokenStart);
    return oblique && this.subject !== undefined ? this.subject : oblique ? undefined : mention;
  }

  /** The mention whose last token is `at`, or the one before a comma there ("X, which…"). */
  private mentionEndingAt(at: number): number | undefined {
    const position = this.parsed.tokens[at]?.text === ',' ? at - 1 : at;
    return this.mentionOf.get(position);
  }

  /** The predicate for an object starting at `start`, or undefined when it is too far from the verb. */
  private objectPredicate(start: number): string | undefined {
    const verb = this.verb as VerbGroup;
    const { tokens } = this.parsed;
    const last = this.lastObject;
    if (last !== undefined && isListGap(tokens, last.end, start)) return last.predicate;
    const chained = last !== undefined && start - last.end <= CHAIN_GAP;
    const from = chained && last !== undefined ? last.end : verb.end;
    if (start - from > MAX_GAP) return undefined;
    const words = gapWords(tokens, from, start, chained);
    return words && [verb.text, ...words].slice(0, MAX_PREDICATE_WORDS).join(' ');
  }

  /** A mention right after a preposition (across determiners, adjectives, numbers) is no subject. */
  private isOblique(start: number): boolean {
    for (let at = start - 1; at >= this.sentence.tokenStart; at--) {
      const token = this.parsed.tokens[at] as ParsedToken;
      if (token.pos === 'ADP') return true;
      if (token.pos !== 'DET' && token.pos !== 'ADJ' && token.pos !== 'NUM') return false;
    }
    return false;
  }
}

/**
 * The words between `from` and an object at `start` that join the predicate (a chained object's prepositions,
 * else the words the gap does not skip); undefined when a comma or clause break, or in a chain a word that
 * cannot chain, comes between.
 */
function gapWords(tokens: readonly ParsedToken[], from: number, start: number, chained: boolean): string[] | undefined {
  const words: string[] = [];
  for (let at = from; at < start; at++) {
    const token = tokens[at] as ParsedToken;
    if (token.text === ',' || CLAUSE_BREAKS.has(token.text)) return undefined;
    if (chained && !CHAIN_TAGS.has(token.pos)) return undefined;
    if (chained ? token.pos === 'ADP' : !GAP_SKIPPED_TAGS.has(token.pos)) words.push(token.normal);
  }
  return words;
}

/** "peer-reviewed": a verb glued to a hyphen is part of a compound adjective. */
function isCompoundPart(tokens: readonly ParsedToken[], at: number): boolean {
  const previous = tokens[at - 1];
  return previous !== undefined && previous.text === '-' && previous.end === tokens[at]?.start;
}

/** The verb group from `start`; it stops at a mention ("reported ERR_SYNC_TIMEOUT", whose "ERR" wink tags a verb). */
function readVerbGroup(tokens: readonly ParsedToken[], start: number, end: number, inMention: (index: number) => boolean): VerbGroup {
  const group: ParsedToken[] = [];
  let at = start;
  for (; at < end && !inMention(at); at++) {
    const token = tokens[at] as ParsedToken;
    const verbal = token.pos === 'VERB' || token.pos === 'AUX';
    if (verbal || KEPT_ADVERBS.has(token.normal) || (token.pos === 'PART' && token.normal === 'to')) group.push(token);
    else if (token.pos === 'ADV' && (tokens[at + 1]?.pos === 'VERB' || tokens[at + 1]?.pos === 'AUX')) continue;
    else break;
  }
  const hasVerb = group.some((token) => token.pos === 'VERB');
  const words = hasVerb ? group.filter((token) => token.pos !== 'AUX') : group;
  const head = [...group].reverse().find((token) => token.pos === 'VERB' || token.pos === 'AUX');
  return { text: words.map((token) => token.normal).join(' '), lemma: head?.lemma ?? '', end: at };
}

/** Only ',', 'and', 'or' between the previous object and this one. */
function isListGap(tokens: readonly ParsedToken[], from: number, to: number): boolean {
  if (to - from > 2 || to <= from) return false;
  for (let at = from; at < to; at++) {
    const text = tokens[at]?.normal ?? '';
    if (text !== ',' && text !== 'and' && text !== 'or') return false;
  }
  return true;
}
