/**
 * Sentence-aware chunking with overlap.
 *
 * A chunk packs whole sentences up to `chunkSize` characters (UTF-16 code units) of whitespace-
 * normalised text (see `normalizeWhitespace`). A sentence longer than `chunkSize` is packed word by
 * word (it fills up the current chunk and goes on in the next ones); only a single word longer than
 * `chunkSize` is cut inside (never inside a surrogate pair), so every chunk is at most `chunkSize`.
 *
 * Overlap: each chunk after the first starts with the tail of the previous one, about
 * `overlapPercent` of `chunkSize` characters and never more. It takes whole trailing sentences of the
 * previous chunk when they come to at least half that target; otherwise it takes trailing words. The
 * overlap never holds the whole previous chunk and shrinks when the next sentence would not fit.
 *
 * `start`/`end` are offsets into the original text: `normalizeWhitespace(text.slice(start, end))`
 * equals the chunk's text. The output is a pure function of the input.
 */
import { at, buildWordTable, rangeLength, rangeText, type WordTable } from './words';

export { normalizeWhitespace } from './words';

/** One chunk of a text. */
export interface Chunk {
  /** Position in the text's chunk list, from 0. */
  index: number;
  /** Whitespace-normalised text, never empty, at most `chunkSize` characters. */
  text: string;
  /** Offset of the chunk's first character in the original text. */
  start: number;
  /** Offset just after the chunk's last character in the original text. */
  end: number;
}

/** How to chunk: a size in characters and the overlap between consecutive chunks. */
export interface ChunkOptions {
  /** Largest chunk, in characters (UTF-16 code units); an integer of at least 2. */
  chunkSize: number;
  /** Overlap between consecutive chunks as a percentage of `chunkSize`, 0 to 50. */
  overlapPercent: number;
}

/** Defaults for graph memories: ~1,200 characters (~300 tokens) per LLM extraction call, 10% overlap. */
export const GRAPH_CHUNK_DEFAULTS: Readonly<ChunkOptions> = Object.freeze({
  chunkSize: 1200,
  overlapPercent: 10,
});

/** Defaults for vector (chunked text) memories: ~1,000 characters per retrieved chunk, 10% overlap. */
export const VECTOR_CHUNK_DEFAULTS: Readonly<ChunkOptions> = Object.freeze({
  chunkSize: 1000,
  overlapPercent: 10,
});

type WordRange = { from: number; to: number };

/** Splits `text` into overlapping chunks of whole sentences; [] for empty or all-whitespace text. */
export function chunkText(text: string, options: ChunkOptions): Chunk[] {
  validateOptions(options);
  const { chunkSize } = options;
  const table = buildWordTable(text, chunkSize);
  const units = packingUnits(table, chunkSize);
  const overlapTarget = Math.floor((chunkSize * options.overlapPercent) / 100);
  return packChunks(table, units, chunkSize, overlapTarget).map((range, index) => ({
    index,
    text: rangeText(table, text, range.from, range.to),
    start: at(table.starts, range.from),
    end: at(table.ends, range.to - 1),
  }));
}

function validateOptions({ chunkSize, overlapPercent }: ChunkOptions): void {
  if (!Number.isInteger(chunkSize) || chunkSize < 2) {
    throw new RangeError(`chunkSize must be an integer of at least 2, got ${chunkSize}`);
  }
  if (!Number.isFinite(overlapPercent) || overlapPercent < 0 || overlapPercent > 50) {
    throw new RangeError(`overlapPercent must be between 0 and 50, got ${overlapPercent}`);
  }
}

/** Sentences, except that a sentence longer than `chunkSize` contributes each of its words. */
function packingUnits(table: WordTable, chunkSize: number): WordRange[] {
  const units: WordRange[] = [];
  for (const sentence of table.sentences) {
    if (rangeLength(table, sentence.from, sentence.to) <= chunkSize) {
      units.push(sentence);
      continue;
    }
    for (let word = sentence.from; word < sentence.to; word++) units.push({ from: word, to: word + 1 });
  }
  return units;
}

/** Greedy packing of units into word ranges, each after the first opening with an overlap. */
function packChunks(table: WordTable, units: WordRange[], chunkSize: number, overlapTarget: number): WordRange[] {
  const chunks: WordRange[] = [];
  let unit = 0;
  while (unit < units.length) {
    const first = units[unit] as WordRange;
    const previous = chunks[chunks.length - 1];
    const from = previous ? overlapStart({ table, units, unit, previous, chunkSize, overlapTarget }) : first.from;
    let to = first.to;
    unit++;
    while (unit < units.length && rangeLength(table, from, (units[unit] as WordRange).to) <= chunkSize) {
      to = (units[unit] as WordRange).to;
      unit++;
    }
    chunks.push({ from, to });
  }
  return chunks;
}

interface OverlapQuery {
  table: WordTable;
  units: WordRange[];
  /** Index of the first unit of the new chunk; it starts where `previous` ends. */
  unit: number;
  previous: WordRange;
  chunkSize: number;
  overlapTarget: number;
}

/** First word of the new chunk: inside `previous` when an overlap fits, else the new unit's start. */
function overlapStart(query: OverlapQuery): number {
  const { table, units, unit, previous, overlapTarget } = query;
  const boundary = previous.to;
  const firstUnitEnd = (units[unit] as WordRange).to;
  const fits = (start: number): boolean =>
    start > previous.from &&
    rangeLength(table, start, boundary) <= overlapTarget &&
    rangeLength(table, start, firstUnitEnd) <= query.chunkSize;
  let bySentence = boundary;
  for (let back = unit - 1; back >= 0 && fits((units[back] as WordRange).from); back--) {
    bySentence = (units[back] as WordRange).from;
  }
  if (2 * rangeLength(table, bySentence, boundary) >= overlapTarget) return bySentence;
  let byWord = bySentence;
  for (let word = boundary - 1; word >= 0 && fits(word); word--) {
    if (table.separators[word] !== '') byWord = word;
  }
  return Math.min(byWord, bySentence);
}
