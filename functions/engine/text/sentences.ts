/**
 * Fast rule-based sentence splitting with offsets into the original text.
 *
 * Rules, in order:
 * - A blank line (paragraph break) always ends a sentence.
 * - A single newline is a soft wrap (PDF and e-mail text wrap mid-sentence) unless the line it ends or
 *   the line it starts is a list item or Markdown heading, or the line it ends finishes with ':'.
 * - `.`, `!`, `?`, `…` (and runs like `?!` or `...`), plus any closing quotes or brackets, end a sentence
 *   when followed by whitespace and then something other than a lowercase letter. Decimals, URLs and
 *   "U.S.A"-style internals never qualify since no whitespace follows their dots.
 * - A single `.` after a known abbreviation does not end a sentence: never after titles and the like
 *   ("Dr.", "e.g.", "Fig."); after "No."/"p." only if no number follows; after an initial ("J."), a
 *   dotted acronym ("U.S.") or "etc."/"et al." only if the next word commonly opens a sentence.
 * - CJK full stops (`。！？`) end a sentence without needing whitespace.
 * One pass over the text, with a regular expression finding candidate positions.
 */
import { AMBIGUOUS_ABBREVIATIONS, NEVER_FINAL_ABBREVIATIONS, NUMBER_PREFIX_ABBREVIATIONS, SENTENCE_OPENERS } from './abbreviations';

/** A sentence: `text === source.slice(start, end)`, trimmed of surrounding whitespace, never empty. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

const CANDIDATE = /[.!?\u2026]+|[\u3002\uff01\uff1f]+|\n/g;
const CLOSERS = new Set(['"', "'", '\u201d', '\u2019', '\u00bb', ')', ']', '}', '\u300d', '\u300f']);
const OPENERS = new Set(['"', "'", '\u201c', '\u2018', '\u00ab', '(', '[', '{']);
const LIST_MARKER = /[ \t]*(?:[-*+\u2022\u2023\u25e6\u25aa\u2043\u2013\u2014]|\d{1,3}[.)]|\(\d{1,3}\)|[a-z][)]|\([a-z]\)|#{1,6})[ \t]/y;
const LOWERCASE = /\p{Ll}/u;
const DOTTED_ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
const SINGLE_LETTER = /^\p{L}$/u;
const WORD = /[\p{L}\p{N}]+/uy;

/** True for the characters JavaScript's `\s` matches. */
export function isWhitespace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Splits `text` into sentences, in order, with offsets into `text`. */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let sentenceStart = 0;
  let lineStart = 0;
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const at = match.index;
    const run = match[0];
    let cut = -1;
    if (run === '\n') {
      if (endsSentenceAtNewline(text, lineStart, at)) cut = at;
      lineStart = at + 1;
    } else {
      cut = sentenceEndAfterPunctuation(text, at, run);
      if (cut > at + run.length) CANDIDATE.lastIndex = cut;
    }
    if (cut >= 0) {
      pushTrimmed(sentences, text, sentenceStart, cut);
      sentenceStart = cut;
    }
  }
  pushTrimmed(sentences, text, sentenceStart, text.length);
  return sentences;
}

function pushTrimmed(sentences: Sentence[], text: string, from: number, to: number): void {
  let start = from;
  let end = to;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (end > start) sentences.push({ text: text.slice(start, end), start, end });
}

function endsSentenceAtNewline(text: string, lineStart: number, newlineAt: number): boolean {
  let next = newlineAt + 1;
  while (next < text.length && isHorizontalSpace(text.charCodeAt(next))) next++;
  if (next >= text.length || text.charCodeAt(next) === 10) return true;
  if (startsWithListMarker(text, newlineAt + 1) || startsWithListMarker(text, lineStart)) return true;
  let last = newlineAt - 1;
  while (last >= lineStart && isWhitespace(text.charCodeAt(last))) last--;
  return last >= lineStart && text[last] === ':';
}

function isHorizontalSpace(code: number): boolean {
  return code !== 10 && isWhitespace(code);
}

function startsWithListMarker(text: string, at: number): boolean {
  LIST_MARKER.lastIndex = at;
  return LIST_MARKER.test(text);
}

/** Where the sentence ends if the punctuation `run` at `at` ends one (after closers), else -1. */
function sentenceEndAfterPunctuation(text: string, at: number, run: string): number {
  let end = at + run.length;
  while (end < text.length && CLOSERS.has(text[end] ?? '')) end++;
  if (isCjkStop(run)) return end;
  if (end < text.length && !isWhitespace(text.charCodeAt(end))) return -1;
  const next = nextWordStart(text, end);
  if (next >= text.length) return end;
  if (LOWERCASE.test(text[next] ?? '')) return -1;
  if (run !== '.') return end;
  return isAbbreviationBefore(text, at, next) ? -1 : end;
}

function isCjkStop(run: string): boolean {
  const code = run.charCodeAt(0);
  return code === 0x3002 || code === 0xff01 || code === 0xff1f;
}

function nextWordStart(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at++;
  while (at < text.length && OPENERS.has(text[at] ?? '')) at++;
  return at;
}

/** True if the `.` at `dotAt` closes an abbreviation that does not end the sentence here. */
function isAbbreviationBefore(text: string, dotAt: number, nextAt: number): boolean {
  const word = wordBefore(text, dotAt);
  if (word.length === 0) return false;
  if (NEVER_FINAL_ABBREVIATIONS.has(word)) return true;
  if (NUMBER_PREFIX_ABBREVIATIONS.has(word)) return isDigit(text.charCodeAt(nextAt));
  const ambiguous = AMBIGUOUS_ABBREVIATIONS.has(word) || SINGLE_LETTER.test(word) || DOTTED_ACRONYM.test(word);
  return ambiguous && !SENTENCE_OPENERS.has(wordAt(text, nextAt));
}

/** The lowercased token before `dotAt` (back to whitespace), without leading opening punctuation. */
function wordBefore(text: string, dotAt: number): string {
  let start = dotAt;
  while (start > 0 && !isWhitespace(text.charCodeAt(start - 1)) && dotAt - start < 12) start--;
  if (start > 0 && !isWhitespace(text.charCodeAt(start - 1))) return '';
  while (start < dotAt && OPENERS.has(text[start] ?? '')) start++;
  return text.slice(start, dotAt).toLowerCase();
}

function wordAt(text: string, at: number): string {
  WORD.lastIndex = at;
  const match = WORD.exec(text);
  return match ? match[0].toLowerCase() : '';
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
