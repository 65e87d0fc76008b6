/**
 * Title-link feedback: a second retrieval hop through mentions of other documents' titles.
 *
 * Multi-hop questions name one thing and ask about another ("the city where X was born"): the first
 * lexical pass finds X's chunk, whose text names the city, and the city's own document is titled
 * with that name. So after the first pass, the text of the best chunks is scanned for exact mentions
 * of any document title (as analyzed term sequences, a trailing "(disambiguation)" removed), and the
 * chunks of a mentioned document get a feedback score: the sum, over the mentioning chunks, of their
 * first-pass score relative to the best one. Measured on the dev splits (bench/quality/README.md):
 * HotpotQA R@5 0.80 → 0.93, MuSiQue 0.55 → 0.60, SciFact unchanged (paper titles are never mentioned).
 * It is a light, title-only form of the entity graph; the graph library's PPR generalises it.
 */
import { analyzeInOne, type AnalyzerOptions } from '../lexical/analyzer';
import type { Language } from '../lexical/language';

/** A title as its analyzed terms, and the chunk ordinals carrying it. */
interface TitleEntry {
  readonly terms: readonly string[];
  readonly chunks: readonly number[];
}

/** First term → the titles starting with it (a `Map`, or a composed index's lookup over its parts). */
interface TitleLookup {
  get(first: string): readonly TitleEntry[] | undefined;
}

/** Titles as term sequences, looked up by their first term. */
export interface TitleLinkTable {
  readonly byFirstTerm: TitleLookup;
}

const DISAMBIGUATION = /\s*\([^()]*\)\s*$/;

/**
 * Builds the table from each chunk's title (index = chunk ordinal; empty titles are skipped), analyzed in
 * one of the index's `languages` (see `analyzeInOne`).
 */
export function buildTitleLinks(titles: readonly string[], analyzer: AnalyzerOptions, languages: readonly Language[]): TitleLinkTable {
  const byKey = new Map<string, { terms: string[]; chunks: number[] }>();
  const byFirstTerm = new Map<string, Array<{ terms: string[]; chunks: number[] }>>();
  const termsOfTitle = new Map<string, string[]>();
  titles.forEach((title, ordinal) => {
    if (!title) return;
    let terms = termsOfTitle.get(title);
    if (!terms) termsOfTitle.set(title, (terms = analyzeInOne(title.replace(DISAMBIGUATION, ''), analyzer, languages)));
    const first = terms[0];
    if (first === undefined) return;
    const key = terms.join(' ');
    let entry = byKey.get(key);
    if (!entry) {
      byKey.set(key, (entry = { terms, chunks: [] }));
      byFirstTerm.set(first, [...(byFirstTerm.get(first) ?? []), entry]);
    }
    entry.chunks.push(ordinal);
  });
  return { byFirstTerm };
}

/** One part's table with its chunk ordinals in the composed index (-1: deleted). */
export interface TitleLinkPart {
  table: TitleLinkTable;
  ordinals: Int32Array;
}

/**
 * The table `buildTitleLinks` makes of the parts' live chunks (composed ordinals ascending part after
 * part), read from the parts' own tables: no title is analyzed again, and nothing is done per chunk when
 * a version is composed: a first term's titles are put together the first time a query looks it up, and
 * kept. Only valid when each part analyzed its titles as the composed index would (the same analyzer
 * options and reading languages).
 */
export function composeTitleLinks(parts: readonly TitleLinkPart[]): TitleLinkTable {
  return { byFirstTerm: new ComposedTitles(parts) };
}

class ComposedTitles implements TitleLookup {
  private readonly found = new Map<string, readonly TitleEntry[]>();

  constructor(private readonly parts: readonly TitleLinkPart[]) {}

  get(first: string): readonly TitleEntry[] | undefined {
    let entries = this.found.get(first);
    if (!entries) {
      const byKey = new Map<string, { terms: readonly string[]; chunks: number[] }>();
      for (const { table, ordinals } of this.parts)
        for (const entry of table.byFirstTerm.get(first) ?? []) addLiveChunks(byKey, entry, ordinals);
      // the titles in the order of their first chunk, as a build adds them
      entries = [...byKey.values()].sort((a, b) => (a.chunks[0] ?? 0) - (b.chunks[0] ?? 0));
      this.found.set(first, entries);
    }
    return entries.length > 0 ? entries : undefined;
  }
}

/** Adds a part's title entry's live chunks, in composed ordinals, to the entry of the same terms. */
function addLiveChunks(byKey: Map<string, { terms: readonly string[]; chunks: number[] }>, entry: TitleEntry, ordinals: Int32Array): void {
  const key = entry.terms.join(' ');
  for (const chunk of entry.chunks) {
    const ordinal = ordinals[chunk] ?? -1;
    if (ordinal < 0) continue;
    let composed = byKey.get(key);
    if (!composed) byKey.set(key, (composed = { terms: entry.terms, chunks: [] }));
    composed.chunks.push(ordinal);
  }
}

/** Ordinals of the chunks whose title is mentioned in `terms` (an analyzed chunk text). */
function mentionedChunks(table: TitleLinkTable, terms: readonly string[]): Set<number> {
  const found = new Set<number>();
  for (let position = 0; position < terms.length; position++) {
    for (const title of table.byFirstTerm.get(terms[position] ?? '') ?? []) {
      if (title.terms.every((term, offset) => terms[position + offset] === term)) {
        for (const chunk of title.chunks) found.add(chunk);
      }
    }
  }
  return found;
}

/** What feedback needs to know about the first pass and the index. */
export interface LinkFeedbackInput {
  table: TitleLinkTable;
  /** First-pass results, best first: ordinal and score. */
  firstPass: ReadonlyArray<{ ordinal: number; score: number }>;
  /** How many of the best chunks to read. */
  feedbackChunks: number;
  /** Analyzed terms of a chunk's text. */
  termsOf: (ordinal: number) => readonly string[];
  /** A chunk's file; links into the mentioning chunk's own file are ignored. */
  fileOf: (ordinal: number) => number;
}

/** Linked chunk ordinal → feedback score (sum of the mentioning chunks' relative first-pass scores). */
export function linkFeedback(input: LinkFeedbackInput): Map<number, number> {
  const scores = new Map<number, number>();
  const best = input.firstPass[0]?.score ?? 0;
  if (best <= 0) return scores;
  for (const source of input.firstPass.slice(0, input.feedbackChunks)) {
    const weight = source.score / best;
    const sourceFile = input.fileOf(source.ordinal);
    for (const chunk of mentionedChunks(input.table, input.termsOf(source.ordinal))) {
      if (input.fileOf(chunk) !== sourceFile) scores.set(chunk, (scores.get(chunk) ?? 0) + weight);
    }
  }
  return scores;
}
