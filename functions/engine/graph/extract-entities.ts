/**
 * Entity mentions in one chunk of text, typed by the memory's ontology.
 *
 * Four passes over the parsed text, each on tokens no earlier pass took:
 * 1. the ontology's raw-text patterns (error codes, versions) — see `ontology.ts`;
 * 2. wink's value entities whose label the ontology keeps (dates);
 * 3. names: runs of proper nouns or acronym-shaped tokens, joined by "of", "de", "von"… and by
 *    hyphens without spaces ("Jean-Paul"); a leading title or cue word ("President", "Dr.",
 *    "customer") is cut off and kept as a typing cue; "Name (ACR)" records ACR as the name's acronym;
 * 4. salient noun phrases: runs of adjectives and nouns ending in a noun, with at least two content
 *    words (single common nouns are too generic to be nodes).
 */
import { normalizeKey, singularKey, singularWord, looksLikeAcronym } from './normalize';
import type { OntologySchema } from './ontology';
import type { ParsedText, ParsedToken } from './nlp';
import { typeMention, type TypingCue, type VectorTyper } from './typing';
import { findNameRuns, type NameRun } from './name-runs';

/** One mention of an entity in a chunk. Offsets are into the chunk's text, end exclusive. */
export interface ExtractedMention {
  readonly surface: string;
  /** Matching key (see `normalize.ts`). */
  readonly key: string;
  readonly kind: 'name' | 'phrase' | 'value';
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly tokenStart: number;
  readonly tokenEnd: number;
  readonly sentence: number;
  /** Acronym defined for this name in the text ("World Health Organization (WHO)" → "who"). */
  readonly acronym?: string;
}

export interface ExtractOptions {
  /** Types names no rule covers from word vectors (see `word-vector-typing.ts`). */
  readonly vectorTyper?: VectorTyper;
}

/** The typed mentions of `parsed`, in text order. */
export function extractMentions(parsed: ParsedText, schema: OntologySchema, options: ExtractOptions = {}): ExtractedMention[] {
  const taken = new Uint8Array(parsed.tokens.length);
  const mentions = [
    ...patternMentions(parsed, schema, taken),
    ...valueMentions(parsed, schema, taken),
    ...findNameRuns(parsed, schema, taken).flatMap((run) => nameMention(parsed, schema, run, options)),
    ...phraseMentions(parsed, schema, taken),
  ];
  return mentions.sort((a, b) => a.start - b.start || b.end - a.end);
}

function patternMentions(parsed: ParsedText, schema: OntologySchema, taken: Uint8Array): ExtractedMention[] {
  const out: ExtractedMention[] = [];
  for (const { pattern, type, canonical } of schema.rules.textPatterns) {
    for (const match of parsed.text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const span = tokensInRange(parsed.tokens, start, end);
      if (span === undefined || isTaken(taken, span.from, span.to)) continue;
      taken.fill(1, span.from, span.to);
      const key = canonical ? canonical(match[0]) : normalizeKey(match[0]);
      out.push(mention(parsed, { surface: match[0], key, kind: 'name', type, from: span.from, to: span.to }));
    }
  }
  return out;
}

function valueMentions(parsed: ParsedText, schema: OntologySchema, taken: Uint8Array): ExtractedMention[] {
  const out: ExtractedMention[] = [];
  for (const value of parsed.values) {
    if (isTaken(taken, value.tokenStart, value.tokenEnd)) continue;
    const surface = surfaceOf(parsed, value.tokenStart, value.tokenEnd);
    if (value.label === 'DATE' && !/\d/.test(surface)) continue; // "Jan" in "Jan Solovej", "Monday"
    const cue: TypingCue = { kind: 'value', surface, words: [], headLemma: '', valueLabel: value.label, before: [] };
    const type = typeMention(schema, cue);
    if (type === undefined) continue;
    taken.fill(1, value.tokenStart, value.tokenEnd);
    out.push(mention(parsed, { surface, key: normalizeKey(surface), kind: 'value', type, from: value.tokenStart, to: value.tokenEnd }));
  }
  return out;
}

function nameMention(parsed: ParsedText, schema: OntologySchema, run: NameRun, options: ExtractOptions): ExtractedMention[] {
  const surface = surfaceOf(parsed, run.from, run.to);
  const key = normalizeKey(surface);
  if (key.length < 2 || (key.length < 3 && !looksLikeAcronym(surface)) || isLexiconWord(schema, key)) return [];
  const cue: TypingCue = {
    kind: 'name',
    surface,
    words: key.split(' '),
    headLemma: '',
    before: wordsBefore(parsed.tokens, run.from - run.titleLength),
    ...(run.title === undefined ? {} : { title: run.title }),
    quoted: run.quoted,
  };
  const type = typeMention(schema, cue, options.vectorTyper) ?? schema.rules.defaultName;
  const base = mention(parsed, { surface, key, kind: 'name', type, from: run.from, to: run.to });
  return [run.acronym === undefined ? base : { ...base, acronym: run.acronym }];
}

const PHRASE_TAGS = new Set(['ADJ', 'NOUN']);
const WEAK_ADJECTIVES = new Set([
  'other',
  'many',
  'several',
  'such',
  'same',
  'own',
  'various',
  'first',
  'last',
  'next',
  'new',
  'old',
  'few',
  'more',
  'most',
  'much',
  'certain',
  'different',
  'similar',
  'main',
  'major',
  'early',
  'late',
  'recent',
  'former',
  'current',
  'previous',
  'good',
  'great',
  'little',
  'large',
  'small',
  'big',
  'high',
  'low',
  'long',
  'whole',
  'entire',
]);
const MAX_PHRASE_WORDS = 4;

function phraseMentions(parsed: ParsedText, schema: OntologySchema, taken: Uint8Array): ExtractedMention[] {
  const out: ExtractedMention[] = [];
  const { tokens } = parsed;
  let from = 0;
  while (from < tokens.length) {
    if (taken[from] || !PHRASE_TAGS.has(tokens[from]?.pos ?? '')) {
      from++;
      continue;
    }
    let to = from;
    while (to < tokens.length && !taken[to] && PHRASE_TAGS.has(tokens[to]?.pos ?? '') && sameSentence(tokens, from, to)) to++;
    const phrase = trimPhrase(tokens, from, to);
    if (phrase !== undefined) {
      const built = phraseMention(parsed, schema, phrase.from, phrase.to);
      if (built !== undefined) out.push(built);
    }
    from = to;
  }
  return out;
}

/** Cuts weak leading adjectives and trailing adjectives; keeps at most the last few words. */
function trimPhrase(tokens: readonly ParsedToken[], from: number, to: number): { from: number; to: number } | undefined {
  let end = to;
  while (end > from && tokens[end - 1]?.pos !== 'NOUN') end--;
  let start = Math.max(from, end - MAX_PHRASE_WORDS);
  while (
    start < end &&
    (WEAK_ADJECTIVES.has(tokens[start]?.normal ?? '') || (tokens[start]?.pos !== 'NOUN' && !/^\p{L}/u.test(tokens[start]?.text ?? '')))
  )
    start++;
  return start < end ? { from: start, to: end } : undefined;
}

function phraseMention(parsed: ParsedText, schema: OntologySchema, from: number, to: number): ExtractedMention | undefined {
  const surface = surfaceOf(parsed, from, to);
  const key = singularKey(surface);
  const words = key.split(' ');
  const headLemma = singularWord(words[words.length - 1] ?? '');
  if (key.length < 3 || words.length < 2 || words.some((word) => word.length < 2)) return undefined;
  const cue: TypingCue = { kind: 'phrase', surface, words, headLemma, before: [] };
  const type = typeMention(schema, cue) ?? schema.rules.defaultPhrase;
  return mention(parsed, { surface, key, kind: 'phrase', type, from, to });
}

interface MentionParts {
  surface: string;
  key: string;
  kind: ExtractedMention['kind'];
  type: string;
  from: number;
  to: number;
}

function mention(parsed: ParsedText, parts: MentionParts): ExtractedMention {
  const first = parsed.tokens[parts.from];
  const last = parsed.tokens[parts.to - 1];
  return {
    surface: parts.surface,
    key: parts.key,
    kind: parts.kind,
    type: parts.type,
    start: first?.start ?? 0,
    end: last?.end ?? 0,
    tokenStart: parts.from,
    tokenEnd: parts.to,
    sentence: first?.sentence ?? 0,
  };
}

/** The text from token `from` to the end of token `to - 1`, as written. */
function surfaceOf(parsed: ParsedText, from: number, to: number): string {
  return parsed.text.slice(parsed.tokens[from]?.start ?? 0, parsed.tokens[to - 1]?.end ?? 0);
}

/** A lone "Museum", "University", "President": a lexicon word is no name by itself. */
function isLexiconWord(schema: OntologySchema, key: string): boolean {
  const { rules } = schema;
  return rules.nameHeads[key] !== undefined || rules.titles[key] !== undefined || rules.cueWords[key] !== undefined;
}

function wordsBefore(tokens: readonly ParsedToken[], index: number): string[] {
  const out: string[] = [];
  for (let at = index - 1; at >= 0 && out.length < 2 && tokens[at]?.sentence === tokens[index]?.sentence; at--) {
    out.push((tokens[at]?.normal ?? '').replace(/\.$/, ''));
  }
  return out;
}

function tokensInRange(tokens: readonly ParsedToken[], start: number, end: number): { from: number; to: number } | undefined {
  let from = -1;
  let to = -1;
  tokens.forEach((token, index) => {
    if (token.end > start && token.start < end) {
      if (from < 0) from = index;
      to = index + 1;
    }
  });
  return from < 0 ? undefined : { from, to };
}

function isTaken(taken: Uint8Array, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (taken[index]) return true;
  return false;
}

function sameSentence(tokens: readonly ParsedToken[], a: number, b: number): boolean {
  return tokens[a]?.sentence === tokens[b]?.sentence;
}
