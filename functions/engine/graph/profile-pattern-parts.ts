/**
 * What the profile patterns (profile-patterns.ts) are made of: the pattern's shape, the wordings their
 * regular expressions share, and the key a preference is about.
 */
import type { SpeakerStatement } from './graph-model';

/** One pattern: what a match of it says. `value` is the matched object, cut at the clause's end. */
export interface StatementPattern {
  readonly pattern: RegExp;
  readonly category: SpeakerStatement['category'];
  readonly kind: string;
  /** The slot of a single-valued statement (given the value), or none. */
  readonly slot?: (value: string) => string;
  /** A value that is a place or a name: cut before the first lowercase word. */
  readonly named?: boolean;
  /**
   * Words one of which every match contains (lowercase, as substrings of the lowercased sentence): a
   * sentence with none of them skips the pattern without running it (profile-statements.ts).
   */
  readonly needs: readonly string[];
}

export const I = String.raw`(?:^|[^\w'])I`;
export const IM = String.raw`(?:^|[^\w'])(?:I'm|I am)`;
export const WE = String.raw`(?:^|[^\w'])(?:I|we)`;
export const ADV = String.raw`(?:\s+(?:really|also|just|absolutely|still|actually|totally|now|finally|recently|truly|do))*`;
export const V = String.raw`\s+(.+)`;
/** A name before the verb ("Lisbon has been home"): capitalised words, "of"/"de" between them. */
export const NAME_FIRST = String.raw`(?:^|[^\w'])(\p{Lu}[\p{L}\d&.'-]*(?:\s+(?:of\s+|de\s+)?\p{Lu}[\p{L}\d&.'-]*)*)`;
/** A thing at the sentence's start ("sushi is not for me", "Board games aren't my thing"). */
export const THING_FIRST = String.raw`^(?:honestly,?\s+|well,?\s+)?([\p{L}\d][\p{L}\d\s'-]*?)`;
export const NOT_MINE = String.raw`(?:for me|my thing|my cup of tea)\b`;
export const DIETS = String.raw`(vegetarian|vegan|pescatarian|teetotal|gluten[- ]free|lactose[- ]intolerant|on a [\w-]+ diet)\b`;
export const TITLES = String.raw`(?:the\s+|a\s+|an\s+)?(CEO|CTO|CFO|COO|founder|co-?founder|owner|president|chair(?:man|woman|person)?|(?:managing\s+)?director|head|VP)`;

export const opinion = (value: string): string => `opinion:${headKey(value, false)}`;

/** The key a preference is about: its head word ("window seats" → "seat") or the whole value, lowercase. */
export function headKey(value: string, head: boolean): string {
  const words = value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .split(/\s+/)
    .filter(Boolean);
  const key = head ? (words.at(-1) ?? '') : words.join(' ');
  return key.replace(/(?<=\w\w)s$/, '');
}
