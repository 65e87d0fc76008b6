/**
 * Posting lists as bytes: each term's list is a run of (doc-ordinal gap, term frequency) pairs, both
 * unsigned LEB128 varints, docs ascending; the first gap is the doc ordinal itself. Lists are decoded
 * only for the terms a query uses, so a loaded segment needs no decoding up front.
 */

/** A growable byte buffer that writes unsigned LEB128 varints. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  private length = 0;

  /** Appends `value` (an integer from 0 to 2^32 - 1) as a varint. */
  write(value: number): void {
    if (this.length + 5 > this.bytes.length) this.grow();
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.length;
  }

  /** A copy of the written bytes, exactly `size` long. */
  toBytes(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private grow(): void {
    const bigger = new Uint8Array(this.bytes.length * 2);
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }
}

/** One term's decoded posting list: parallel arrays of doc ordinals (ascending) and frequencies. */
export interface DecodedPostings {
  docs: Uint32Array;
  freqs: Uint32Array;
}

/** Decodes `count` (gap, frequency) pairs from `bytes[from..to)`. */
export function decodePostings(bytes: Uint8Array, from: number, to: number, count: number): DecodedPostings {
  const docs = new Uint32Array(count);
  const freqs = new Uint32Array(count);
  let position = from;
  let doc = 0;
  for (let index = 0; index < count && position < to; index++) {
    let value = 0;
    let shift = 0;
    let byte = 0x80;
    for (; byte & 0x80; shift += 7) {
      byte = bytes[position++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
    }
    doc += value;
    docs[index] = doc;
    value = 0;
    shift = 0;
    byte = 0x80;
    for (; byte & 0x80; shift += 7) {
      byte = bytes[position++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
    }
    freqs[index] = value;
  }
  return { docs, freqs };
}

/** Posting lists of a whole segment in CSR form, terms in code-unit order. */
export interface EncodedPostings {
  /** Vocabulary, sorted by code unit (`<`); a term's ordinal is its position. */
  terms: string[];
  /** Term ordinal → number of docs holding the term. */
  docFreqs: Uint32Array;
  /** Term ordinal → first byte of its list in `bytes`; `terms.length + 1` entries. */
  offsets: Uint32Array;
  bytes: Uint8Array;
}

/** Gathers (term, doc, frequency) postings doc by doc, then encodes them sorted by term. */
export class PostingCollector {
  private readonly termIds = new Map<string, number>();
  private triples = new Uint32Array(3 * 4096);
  private count = 0;
  /** Scratch: term id → occurrences in the doc being added; all zero between docs. */
  private docCounts = new Uint32Array(1024);

  /** Adds one doc's terms; docs must come in ascending ordinal order. */
  addDocument(doc: number, terms: readonly string[]): void {
    const touched: number[] = [];
    for (const term of terms) {
      let termId = this.termIds.get(term);
      if (termId === undefined) {
        termId = this.termIds.size;
        this.termIds.set(term, termId);
        if (termId >= this.docCounts.length) this.growDocCounts();
      }
      const seen = this.docCounts[termId] ?? 0;
      if (seen === 0) touched.push(termId);
      this.docCounts[termId] = seen + 1;
    }
    for (const termId of touched) {
      this.push(termId, doc, this.docCounts[termId] ?? 0);
      this.docCounts[termId] = 0;
    }
  }

  /** Adds one doc given as its distinct terms with their frequencies (a doc of an earlier segment). */
  addCounts(doc: number, counts: ReadonlyArray<readonly [term: string, frequency: number]>): void {
    for (const [term, frequency] of counts) {
      let termId = this.termIds.get(term);
      if (termId === undefined) {
        termId = this.termIds.size;
        this.termIds.set(term, termId);
        if (termId >= this.docCounts.length) this.growDocCounts();
      }
      this.push(termId, doc, frequency);
    }
  }

  /** Sorts the vocabulary and encodes each term's postings in doc order. */
  encode(): EncodedPostings {
    const terms = [...this.termIds.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const rankOfId = new Uint32Array(terms.length);
    terms.forEach((term, rank) => (rankOfId[this.termIds.get(term) ?? 0] = rank));
    const docFreqs = new Uint32Array(terms.length);
    for (let i = 0; i < this.count; i++) {
      const rank = rankOfId[this.triples[3 * i] ?? 0] ?? 0;
      docFreqs[rank] = (docFreqs[rank] ?? 0) + 1;
    }
    const order = this.orderByTerm(rankOfId, docFreqs);
    const writer = new VarintWriter();
    const offsets = new Uint32Array(terms.length + 1);
    let position = 0;
    for (let rank = 0; rank < terms.length; rank++) {
      offsets[rank] = writer.size;
      let previousDoc = 0;
      for (const end = position + (docFreqs[rank] ?? 0); position < end; position++) {
        const triple = 3 * (order[position] ?? 0);
        const doc = this.triples[triple + 1] ?? 0;
        writer.write(doc - previousDoc);
        writer.write(this.triples[triple + 2] ?? 0);
        previousDoc = doc;
      }
    }
    offsets[terms.length] = writer.size;
    return { terms, docFreqs, offsets, bytes: writer.toBytes() };
  }

  /** Posting indices grouped by term rank, each group in insertion (doc) order: a counting sort. */
  private orderByTerm(rankOfId: Uint32Array, docFreqs: Uint32Array): Uint32Array {
    const next = new Uint32Array(docFreqs.length);
    for (let rank = 1; rank < docFreqs.length; rank++) {
      next[rank] = (next[rank - 1] ?? 0) + (docFreqs[rank - 1] ?? 0);
    }
    const order = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const rank = rankOfId[this.triples[3 * i] ?? 0] ?? 0;
      const slot = next[rank] ?? 0;
      order[slot] = i;
      next[rank] = slot + 1;
    }
    return order;
  }

  private growDocCounts(): void {
    const bigger = new Uint32Array(this.docCounts.length * 2);
    bigger.set(this.docCounts);
    this.docCounts = bigger;
  }

  private push(termId: number, doc: number, frequency: number): void {
    if (3 * (this.count + 1) > this.triples.length) {
      const bigger = new Uint32Array(this.triples.length * 2);
      bigger.set(this.triples);
      this.triples = bigger;
    }
    const at = 3 * this.count++;
    this.triples[at] = termId;
    this.triples[at + 1] = doc;
    this.triples[at + 2] = frequency;
  }
}
