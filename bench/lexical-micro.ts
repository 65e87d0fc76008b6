/**
 * Micro-benchmark of the lexical core over BEIR SciFact (5,183 abstracts, 809 claims).
 *
 *   npx tsx bench/lexical-micro.ts [path/to/scifact] [--ranking-only] [--chunks N] [--rounds N]
 *
 * Reads the data where it lies (default `../shared/bench-data/scifact` from the project root; never
 * copied). For each analyzer variant it builds a segment over `title + " " + text`, serialises and
 * loads it, then runs every claim as a query (top 100). Prints a markdown table of build time,
 * serialized size, load time and mean query time, plus nDCG@10 / Recall@100 on the dev qrels as a
 * correctness check of BM25 (published BM25 on the SciFact test split: nDCG@10 0.665-0.679). Timings
 * are the best of `RUNS` + 1 runs, so a busy machine disturbs them less. A last row repeats the corpus
 * 20 times (~100k chunks) to show load and query cost at scale. Also times sentence splitting and
 * chunking of the whole corpus. Then the lexical list of a ranking at the latency bench's size (`--chunks`,
 * default 100,000): the exhaustive scorer against the pruned top-N, in alternating rounds
 * (support/lexical-ranking.ts); `--ranking-only` runs that part alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AnalyzerOptions } from '../functions/engine/lexical/analyzer';
import {
  buildSegment,
  deserializeSegment,
  type LexicalDocument,
  type LexicalSegment,
  search,
  serializeSegment,
} from '../functions/engine/lexical/segment';
import { chunkText, VECTOR_CHUNK_DEFAULTS } from '../functions/engine/text/chunker';
import { splitSentences } from '../functions/engine/text/sentences';
import { measureRanking, printRanking } from './support/lexical-ranking';

const RUNS = 3;
const TOP_K = 100;

interface Query {
  id: string;
  text: string;
}

interface VariantRow {
  name: string;
  buildMs: number;
  bytes: number;
  loadMs: number;
  queryMs: number;
  ndcg10: number;
  recall100: number;
}

function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

function readQrels(path: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    const [queryId, docId, score] = line.trim().split('\t');
    if (!queryId || !docId) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)?.set(docId, Number(score));
  }
  return qrels;
}

/** Best wall time of a first call and `runs` more calls of `work`, with the last result. */
function timeBest<T>(runs: number, work: () => T): { ms: number; result: T } {
  let started = performance.now();
  let result = work();
  let best = performance.now() - started;
  for (let run = 0; run < runs; run++) {
    started = performance.now();
    result = work();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}

/** BEIR's nDCG@10 (graded gains, log2 discount) and Recall@100, averaged over judged queries. */
function quality(segment: LexicalSegment, queries: Query[], qrels: Map<string, Map<string, number>>) {
  let ndcgSum = 0;
  let recallSum = 0;
  let judged = 0;
  for (const query of queries) {
    const gold = qrels.get(query.id);
    if (!gold) continue;
    judged++;
    const ranked = search(segment, query.text, TOP_K).map((hit) => hit.id);
    const dcg = ranked.slice(0, 10).reduce((sum, id, rank) => sum + (gold.get(id) ?? 0) / Math.log2(rank + 2), 0);
    const ideal = [...gold.values()].sort((a, b) => b - a).slice(0, 10);
    const idcg = ideal.reduce((sum, gain, rank) => sum + gain / Math.log2(rank + 2), 0);
    ndcgSum += idcg > 0 ? dcg / idcg : 0;
    recallSum += ranked.filter((id) => gold.has(id)).length / gold.size;
  }
  return { ndcg10: ndcgSum / judged, recall100: recallSum / judged };
}

function measureVariant(
  name: string,
  options: AnalyzerOptions,
  data: { docs: LexicalDocument[]; queries: Query[]; qrels: Map<string, Map<string, number>> },
): VariantRow {
  const build = timeBest(RUNS, () => buildSegment(data.docs, options));
  const bytes = serializeSegment(build.result);
  const load = timeBest(RUNS, () => deserializeSegment(bytes));
  const queries = timeBest(RUNS, () => data.queries.map((query) => search(load.result, query.text, TOP_K)));
  return {
    name,
    buildMs: build.ms,
    bytes: bytes.length,
    loadMs: load.ms,
    queryMs: queries.ms / data.queries.length,
    ...quality(load.result, data.queries, data.qrels),
  };
}

/** Load cost at scale: the corpus repeated `copies` times (~100k chunks), default analyzer, one run. */
function measureScale(docs: LexicalDocument[], copies: number, queries: Query[]): VariantRow {
  const copyOf = (copy: number): LexicalDocument[] => docs.map((doc) => ({ ...doc, id: `${copy}:${doc.id}` }));
  const many = Array.from({ length: copies }, (_, copy) => copyOf(copy)).flat();
  const build = timeBest(0, () => buildSegment(many));
  const bytes = serializeSegment(build.result);
  const load = timeBest(RUNS, () => deserializeSegment(bytes));
  const sample = queries.slice(0, 100);
  const search100 = timeBest(RUNS, () => sample.map((query) => search(load.result, query.text, TOP_K)));
  return {
    name: `default, corpus x${copies} (${many.length.toLocaleString('en')} docs)`,
    buildMs: build.ms,
    bytes: bytes.length,
    loadMs: load.ms,
    queryMs: search100.ms / sample.length,
    ndcg10: Number.NaN,
    recall100: Number.NaN,
  };
}

function printTables(rows: VariantRow[], textRows: Array<[string, number, number]>, corpusChars: number): void {
  console.log(`SciFact: ${corpusChars.toLocaleString('en')} characters; Node ${process.version}\n`);
  console.log('| analyzer | build | serialized | load | mean query (top 100) | nDCG@10 (dev) | R@100 (dev) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const cells = [
      row.name,
      `${row.buildMs.toFixed(0)} ms`,
      `${(row.bytes / 1024 / 1024).toFixed(2)} MiB`,
      `${row.loadMs.toFixed(1)} ms`,
      `${row.queryMs.toFixed(3)} ms`,
      Number.isNaN(row.ndcg10) ? 'n/a' : row.ndcg10.toFixed(3),
      Number.isNaN(row.recall100) ? 'n/a' : row.recall100.toFixed(3),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log('\n| text step (whole corpus) | time | output |');
  console.log('|---|---:|---:|');
  for (const [name, ms, count] of textRows) {
    console.log(`| ${name} | ${ms.toFixed(0)} ms | ${count.toLocaleString('en')} |`);
  }
}

/** The value after `--name`, if given. */
function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const path = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
  const folder = resolve(path ?? resolve(import.meta.dirname, '../../shared/bench-data/scifact'));
  if (!process.argv.includes('--ranking-only')) analyzerTables(folder);
  const rows = await measureRanking(folder, Number(flag('chunks') ?? 100_000), Number(flag('rounds') ?? 5));
  printRanking(rows, readJsonLines(resolve(folder, 'queries.jsonl')).length);
}

function analyzerTables(folder: string): void {
  const corpus = readJsonLines<{ _id: string; title: string; text: string }>(resolve(folder, 'corpus.jsonl'));
  const docs = corpus.map((doc) => ({ id: doc._id, fileId: 'scifact', text: `${doc.title} ${doc.text}` }));
  const queries = readJsonLines<{ _id: string; text: string }>(resolve(folder, 'queries.jsonl')).map((query) => ({
    id: query._id,
    text: query.text,
  }));
  const data = { docs, queries, qrels: readQrels(resolve(folder, 'qrels/dev.tsv')) };
  const rows = [
    measureVariant('stem + stopwords (default)', {}, data),
    measureVariant('stopwords only', { stem: false }, data),
    measureVariant('stem only', { stopwords: false }, data),
    measureVariant('neither', { stem: false, stopwords: false }, data),
    measureScale(docs, 20, queries),
  ];
  const texts = docs.map((doc) => doc.text);
  const sentences = timeBest(RUNS, () => texts.reduce((sum, text) => sum + splitSentences(text).length, 0));
  const chunkCount = (text: string): number => chunkText(text, VECTOR_CHUNK_DEFAULTS).length;
  const chunks = timeBest(RUNS, () => texts.reduce((sum, text) => sum + chunkCount(text), 0));
  const corpusChars = texts.reduce((sum, text) => sum + text.length, 0);
  printTables(
    rows,
    [
      ['splitSentences per abstract', sentences.ms, sentences.result],
      ['chunkText per abstract (1000 chars, 10%)', chunks.ms, chunks.result],
    ],
    corpusChars,
  );
}

await main();
