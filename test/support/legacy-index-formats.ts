/**
 * The writers of the index formats before compact loading (#23), kept for tests: lexical segment format 2
 * (doc ids and terms in its JSON metadata) and retrieval index format 1 (ids, file ids, texts and titles
 * as JSON in the header, lexical segments in format 2). Stored memories written by them must still read.
 */
import type { LexicalSegment } from '../../functions/engine/lexical/segment';
import type { RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import { bytesOf, writeSections } from '../../functions/engine/retrieval/section-file';
import { serializeVectors } from '../../functions/engine/retrieval/vector-format';

const align4 = (offset: number): number => Math.ceil(offset / 4) * 4;

/** A lexical segment as format 2 wrote it. */
export function serializeSegmentV2(segment: LexicalSegment): Uint8Array {
  const metadata = {
    analyzer: { stem: segment.analyzer.stem, stopwords: segment.analyzer.stopwords, language: segment.analyzer.language },
    languages: [...segment.languages],
    docIds: [...segment.docIds],
    fileIds: [...segment.fileIds],
    terms: [...segment.terms],
  };
  const json = new TextEncoder().encode(JSON.stringify(metadata));
  const tailStart = align4(32 + json.length);
  const arrays = [segment.docFiles, segment.docLengths, segment.docFreqs, segment.postingOffsets];
  const numericBytes = arrays.reduce((sum, array) => sum + array.byteLength, 0);
  const out = new Uint8Array(tailStart + numericBytes + segment.postings.length);
  const header = new DataView(out.buffer);
  out.set([0x4b, 0x4d, 0x4c, 0x58], 0);
  const fields = [2, json.length, segment.docIds.length, segment.terms.length, segment.fileIds.length, segment.postings.length, 0];
  fields.forEach((value, index) => header.setUint32(4 + 4 * index, value, true));
  out.set(json, 32);
  let position = tailStart;
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), position);
    position += array.byteLength;
  }
  out.set(segment.postings, position);
  return out;
}

/** A retrieval index as format 1 wrote it. */
export function serializeRetrievalIndexV1(index: RetrievalIndex): Uint8Array {
  const { chunks } = index;
  const texts = Array.from({ length: chunks.texts.length }, (_, ordinal) => chunks.texts.at(ordinal) ?? '');
  const header = { ids: [...chunks.ids], fileIds: [...chunks.fileIds], texts, titles: [...chunks.titles] };
  const sections: Record<string, Uint8Array> = {
    text: serializeSegmentV2(index.text),
    titles: serializeSegmentV2(index.titles),
    starts: bytesOf(chunks.starts),
    ends: bytesOf(chunks.ends),
  };
  if (index.vectors) sections.vectors = serializeVectors({ segment: index.vectors, embedder: index.embedder, ann: index.ann });
  return writeSections('KMRI', 1, header, sections);
}
