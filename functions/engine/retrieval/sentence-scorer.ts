/**
 * Query relevance of short texts (sentences, facts) for supporting facts and extracts: the share of
 * the query's idf mass whose terms the text contains (idf from the index's text segment), plus, when an
 * in-process encoder is given, half the cosine similarity of the text's vector to the query vector.
 * A text's distinct terms do not hang on the query: they are kept per text (and analyzer and languages),
 * so the sentences of a chunk that answers many queries are analyzed once, not once per query.
 */
import { analyzeInEach, type AnalyzerOptions } from '../lexical/analyzer';
import type { Language } from '../lexical/language';
import type { LexicalSegment } from '../lexical/segment';
import { queryTerms, termIdf } from './lexical-scorer';
import type { SentenceEncoder } from './sentence-rerank';

/** A query prepared for scoring many short texts. */
export interface QueryModel {
  readonly analyzer: AnalyzerOptions;
  /** The languages of the segment's docs; texts are read in each, like the query. */
  readonly languages: readonly Language[];
  /** Distinct query terms → idf. */
  readonly idf: ReadonlyMap<string, number>;
  readonly totalIdf: number;
  readonly encoder?: SentenceEncoder | null;
  readonly queryVector?: Float32Array | null;
  /** The distinct terms of a text read as the query is, in first-seen order (kept per text). */
  readonly termsOf: (text: string) => readonly string[];
}

const SEMANTIC_SHARE = 0.5;
/** Texts whose distinct terms are kept, per analyzer and languages; all are dropped when full. */
const TEXT_TERMS_LIMIT = 20_000;
const textTerms = new Map<string, Map<string, readonly string[]>>();

/** Prepares `query` against `segment`'s vocabulary and analyzer. */
export function queryModel(
  segment: LexicalSegment,
  query: string,
  semantic: { encoder?: SentenceEncoder | null; queryVector?: Float32Array | null } = {},
): QueryModel {
  const idf = new Map<string, number>();
  for (const term of queryTerms(query, segment).keys()) idf.set(term, Math.max(termIdf(segment, term), 0.1));
  let totalIdf = 0;
  for (const value of idf.values()) totalIdf += value;
  return {
    analyzer: segment.analyzer,
    languages: segment.languages,
    idf,
    totalIdf,
    encoder: semantic.encoder,
    queryVector: semantic.queryVector,
    termsOf: distinctTermsReader(segment.analyzer, segment.languages),
  };
}

/** The distinct terms of a text analyzed with `analyzer` in each of `languages`, kept per text. */
function distinctTermsReader(analyzer: AnalyzerOptions, languages: readonly Language[]): (text: string) => readonly string[] {
  const key = `${analyzer.stem}|${analyzer.stopwords}|${analyzer.language}|${languages.join(',')}`;
  let kept = textTerms.get(key);
  if (!kept) textTerms.set(key, (kept = new Map()));
  const cache = kept;
  return (text) => {
    let terms = cache.get(text);
    if (!terms) {
      terms = [...new Set(analyzeInEach(text, analyzer, languages))];
      if (cache.size >= TEXT_TERMS_LIMIT) cache.clear();
      cache.set(text, terms);
    }
    return terms;
  };
}

/** Relevance of `text` to the query: idf coverage in [0, 1] plus the semantic share. */
export function textRelevance(model: QueryModel, text: string): number {
  let covered = 0;
  if (model.totalIdf > 0) {
    for (const term of model.termsOf(text)) covered += model.idf.get(term) ?? 0;
    covered /= model.totalIdf;
  }
  if (!model.encoder || !model.queryVector) return covered;
  const vector = model.encoder.embedOne(text);
  let cosine = 0;
  for (let index = 0; index < vector.length; index++) cosine += (vector[index] ?? 0) * (model.queryVector[index] ?? 0);
  return covered + SEMANTIC_SHARE * Math.max(0, cosine);
}
