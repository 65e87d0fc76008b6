/**
 * The word layer under the chunker: a text's words (maximal runs of non-whitespace) with their
 * offsets, the separator each one gets in normalised text, and its sentences as word ranges.
 *
 * Whitespace normalisation: a whitespace run between two words becomes one '\n' if it holds a line
 * break and one ' ' otherwise, so line structure (lists, paragraphs) survives at a fixed cost of one
 * character. Words longer than the chunk size are cut into pieces that join with no separator.
 */
import { isWhitespace, splitSentences } from './sentences';

/** Separator before a word in normalised text: none (a piece of a longer word), a space, or a newline. */
type Separator = '' | ' ' | '\n';

/** A text's words in order; every array is indexed by word. */
export interface WordTable {
  starts: number[];
  ends: number[];
  separators: Separator[];
  /** prefix[i]: normalised length of words 0..i-1 counting each one's separator; length n + 1. */
  prefix: number[];
  /** Sentences as half-open word ranges [from, to), in order, covering every word. */
  sentences: Array<{ from: number; to: number }>;
}

/** Whitespace-normalises `text` the way chunks are: runs of whitespace become one '\n' or ' '. */
export function normalizeWhitespace(text: string): string {
  return text.trim().replace(/\s+/g, (run) => (/[\n\r\u2028\u2029]/.test(run) ? '\n' : ' '));
}

/** Builds the word table of `text`, cutting words longer than `maxWordLength` into pieces. */
export function buildWordTable(text: string, maxWordLength: number): WordTable {
  const table: WordTable = { starts: [], ends: [], separators: [], prefix: [0], sentences: [] };
  for (const sentence of splitSentences(text)) {
    const from = table.starts.length;
    addWords(table, text, sentence.start, sentence.end, maxWordLength);
    table.sentences.push({ from, to: table.starts.length });
  }
  return table;
}

/** Normalised length of the words [from, to): their lengths plus the separators between them. */
export function rangeLength(table: WordTable, from: number, to: number): number {
  if (to <= from) return 0;
  const firstSeparator = table.separators[from] === '' ? 0 : 1;
  return at(table.prefix, to) - at(table.prefix, from) - firstSeparator;
}

/** Normalised text of the words [from, to). */
export function rangeText(table: WordTable, text: string, from: number, to: number): string {
  const parts: string[] = [];
  for (let word = from; word < to; word++) {
    if (word > from) parts.push(table.separators[word] ?? ' ');
    parts.push(text.slice(at(table.starts, word), at(table.ends, word)));
  }
  return parts.join('');
}

/** Reads a number array inside its bounds (indices are checked by construction). */
export function at(values: readonly number[], index: number): number {
  return values[index] ?? 0;
}

function addWords(table: WordTable, text: string, from: number, to: number, maxLength: number): void {
  let position = from;
  while (position < to) {
    while (position < to && isWhitespace(text.charCodeAt(position))) position++;
    if (position >= to) break;
    let end = position;
    while (end < to && !isWhitespace(text.charCodeAt(end))) end++;
    addPieces(table, text, position, end, maxLength);
    position = end;
  }
}

function addPieces(table: WordTable, text: string, start: number, end: number, maxLength: number): void {
  let pieceStart = start;
  while (pieceStart < end) {
    let pieceEnd = Math.min(end, pieceStart + maxLength);
    if (pieceEnd < end && isLowSurrogate(text.charCodeAt(pieceEnd))) pieceEnd--;
    const separator = separatorBefore(table, text, pieceStart);
    table.starts.push(pieceStart);
    table.ends.push(pieceEnd);
    table.separators.push(separator);
    const previous = at(table.prefix, table.prefix.length - 1);
    table.prefix.push(previous + (separator === '' ? 0 : 1) + (pieceEnd - pieceStart));
    pieceStart = pieceEnd;
  }
}

function separatorBefore(table: WordTable, text: string, start: number): Separator {
  const count = table.ends.length;
  if (count === 0) return ' ';
  const previousEnd = at(table.ends, count - 1);
  if (previousEnd === start) return '';
  for (let position = previousEnd; position < start; position++) {
    if (isLineBreak(text.charCodeAt(position))) return '\n';
  }
  return ' ';
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
