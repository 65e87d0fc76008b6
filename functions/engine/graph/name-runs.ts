/**
 * Finds names in a parsed text: maximal runs of name tokens (proper nouns, acronym-shaped words,
 * and capitalised nouns continuing a run) within a sentence, joined by lowercase particles ("of",
 * "de", "von"…) or by a hyphen or '&' written without spaces. A lone nationality word before a
 * common noun ("American author") is skipped. A title or cue word opening a run
 * ("President Barack Obama", "Dr. Smith", "Customer Globex") is cut off and returned as `title`.
 */
import { acronymOf, looksLikeAcronym, normalizeKey } from './normalize';
import type { OntologySchema } from './ontology';
import type { ParsedText, ParsedToken } from './nlp';

/** A name: tokens `from` to `to` (exclusive). */
export interface NameRun {
  readonly from: number;
  readonly to: number;
  /** The title or cue word cut from the front, lowercase without a dot. */
  readonly title?: string;
  /** How many tokens the title took (0 when none). */
  readonly titleLength: number;
  /** The name stood between quotation marks. */
  readonly quoted: boolean;
  /** Key of an acronym given in parentheses right after the name. */
  readonly acronym?: string;
}

const JOINERS = new Set(['of', 'de', 'du', 'da', 'di', 'des', 'del', 'della', 'von', 'van', 'der', 'den', 'la', 'le', 'bin', 'al']);
const TIGHT_JOINERS = new Set(['-', '&', '–']);
/** "in"/"for" join after these: "Nobel Prize in Physics", "Academy Award for Best Actor". */
const AWARD_WORDS = new Set(['prize', 'award', 'awards', 'medal', 'trophy', 'cup', 'championship', 'order']);
const QUOTES = new Set(['"', '“', '”', "'", '‘', '’']);
/** Title words that also start real names ("General Motors", "Lady Gaga", "Duke University"). */
const KEEP_IN_NAME = new Set([
  'general',
  'count',
  'justice',
  'father',
  'lady',
  'lord',
  'saint',
  'duke',
  'duchess',
  'judge',
  'bishop',
  'cardinal',
  'sister',
  'brother',
  'uncle',
  'aunt',
  'baron',
  'countess',
  'king',
  'queen',
  'prince',
  'princess',
]);

/** Names on tokens not yet `taken`; marks their tokens (and cut titles) as taken. */
export function findNameRuns(parsed: ParsedText, schema: OntologySchema, taken: Uint8Array): NameRun[] {
  const { tokens } = parsed;
  const runs: NameRun[] = [];
  let index = 0;
  while (index < tokens.length) {
    if (taken[index] || !startsName(tokens[index])) {
      index++;
      continue;
    }
    const end = runEnd(tokens, taken, index);
    if (isDemonymModifier(tokens, index, end)) {
      index = end;
      continue;
    }
    const run = finishRun(tokens, schema, index, end);
    taken.fill(1, index, end);
    runs.push(run);
    index = end;
  }
  return runs;
}

function startsName(token: ParsedToken | undefined): boolean {
  if (token === undefined) return false;
  return token.pos === 'PROPN' ? /[\p{L}\p{N}]/u.test(token.text) : looksLikeAcronym(token.text);
}

function continuesName(token: ParsedToken | undefined): boolean {
  if (token === undefined) return false;
  return startsName(token) || ((token.pos === 'NOUN' || token.pos === 'ADJ') && /^\p{Lu}[^.]*$/u.test(token.text));
}

function runEnd(tokens: readonly ParsedToken[], taken: Uint8Array, start: number): number {
  let end = start + 1;
  const sentence = tokens[start]?.sentence;
  const usable = (at: number): boolean => !taken[at] && tokens[at]?.sentence === sentence;
  while (end < tokens.length && usable(end)) {
    const token = tokens[end];
    if (continuesName(token)) {
      end++;
    } else if (isJoiner(tokens, end) && usable(end + 1) && startsName(tokens[end + 1])) {
      end += 2;
    } else break;
  }
  return end;
}

/** "American author", "British band": a nationality word used as an adjective is not a name. */
function isDemonymModifier(tokens: readonly ParsedToken[], start: number, end: number): boolean {
  if (end - start !== 1) return false;
  const next = tokens[end];
  const modifiesNoun = next !== undefined && (next.pos === 'NOUN' || next.pos === 'ADJ') && /^\p{Ll}/u.test(next.text);
  return modifiesNoun && /(?:an|ish|ese|ic|i|ch|sh|ek|ss|ai)$/.test(tokens[start]?.text ?? '');
}

function isJoiner(tokens: readonly ParsedToken[], at: number): boolean {
  const token = tokens[at];
  if (token === undefined) return false;
  if (JOINERS.has(token.text)) return true;
  const previous = tokens[at - 1];
  if ((token.text === 'in' || token.text === 'for') && AWARD_WORDS.has(previous?.normal ?? '')) return true;
  const next = tokens[at + 1];
  return TIGHT_JOINERS.has(token.text) && previous?.end === token.start && next?.start === token.end;
}

function finishRun(tokens: readonly ParsedToken[], schema: OntologySchema, start: number, end: number): NameRun {
  let from = start;
  let title: string | undefined;
  while (from < end - 1 && isStrippableTitle(schema, tokens[from]) && startsName(tokens[from + 1])) {
    title ??= bareWord(tokens[from]);
    from++;
  }
  const quoted = QUOTES.has(tokens[from - 1]?.text ?? '') && QUOTES.has(tokens[end]?.text ?? '');
  const acronym = definedAcronym(tokens, from, end);
  return {
    from,
    to: end,
    titleLength: from - start,
    quoted,
    ...(title === undefined ? {} : { title }),
    ...(acronym === undefined ? {} : { acronym }),
  };
}

function isStrippableTitle(schema: OntologySchema, token: ParsedToken | undefined): boolean {
  if (token === undefined) return false;
  const word = bareWord(token);
  if (KEEP_IN_NAME.has(word)) return false;
  return schema.rules.titles[word] !== undefined || schema.rules.cueWords[word] !== undefined;
}

function bareWord(token: ParsedToken | undefined): string {
  return (token?.normal ?? '').replace(/\.$/, '');
}

/** "Name ( ACR )" where ACR is the initials of Name. */
function definedAcronym(tokens: readonly ParsedToken[], from: number, end: number): string | undefined {
  const open = tokens[end];
  const candidate = tokens[end + 1];
  const close = tokens[end + 2];
  if (open?.text !== '(' || close?.text !== ')' || candidate === undefined) return undefined;
  if (!looksLikeAcronym(candidate.text)) return undefined;
  const name = tokens
    .slice(from, end)
    .map((token) => token.text)
    .join(' ');
  const acronym = normalizeKey(candidate.text).replace(/ /g, '');
  return acronymOf(normalizeKey(name)) === acronym.replace(/s$/, '') || acronymOf(normalizeKey(name)) === acronym ? acronym : undefined;
}
