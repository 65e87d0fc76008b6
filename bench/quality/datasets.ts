/**
 * Loaders of the development splits in `../shared/bench-data` (read where they lie, never copied) into
 * one shape: documents with a title, and queries with their graded gold documents.
 *
 * - SciFact (BEIR): corpus.jsonl, queries.jsonl, qrels/dev.tsv; only queries with judgements are kept.
 * - HippoRAG subsets: MuSiQue gold = `is_supporting` paragraphs matched by title and text (titles
 *   repeat); HotpotQA gold = the titles in `supporting_facts`. The HotpotQA corpus file is an object
 *   `{title: [sentences]}`; a `[{title, text}]` array is accepted too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A benchmark document: what gets chunked and indexed. */
interface BenchDocument {
  id: string;
  title: string;
  text: string;
}

/** A query with its gold documents (doc id → graded gain). */
export interface BenchQuery {
  id: string;
  text: string;
  gold: Map<string, number>;
}

export interface Benchmark {
  name: BenchmarkName;
  documents: BenchDocument[];
  queries: BenchQuery[];
}

export type BenchmarkName = 'scifact' | 'musique' | 'hotpotqa';

export const BENCHMARK_NAMES: readonly BenchmarkName[] = ['scifact', 'musique', 'hotpotqa'];

/** Loads one benchmark from the bench-data folder `dataDir`. */
export function loadBenchmark(dataDir: string, name: BenchmarkName): Benchmark {
  if (name === 'scifact') return loadSciFact(join(dataDir, 'scifact'));
  return loadHippoRag(join(dataDir, 'hipporag'), name);
}

function readJsonLines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as unknown);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw new Error('bench data: expected an object');
  return value as Record<string, unknown>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function loadSciFact(folder: string): Benchmark {
  const documents = readJsonLines(join(folder, 'corpus.jsonl')).map((line) => {
    const doc = record(line);
    return { id: text(doc._id), title: text(doc.title), text: text(doc.text) };
  });
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(folder, 'qrels/dev.tsv'), 'utf8').split('\n').slice(1)) {
    const [queryId, docId, score] = line.trim().split('\t');
    if (!queryId || !docId) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)?.set(docId, Number(score));
  }
  const queries = readJsonLines(join(folder, 'queries.jsonl')).flatMap((line) => {
    const query = record(line);
    const gold = qrels.get(text(query._id));
    return gold ? [{ id: text(query._id), text: text(query.text), gold }] : [];
  });
  return { name: 'scifact', documents, queries };
}

function loadHippoRag(folder: string, name: 'musique' | 'hotpotqa'): Benchmark {
  const documents = corpusEntries(readJson(join(folder, `${name}_train_corpus.json`))).map((entry, index) => ({
    id: String(index),
    ...entry,
  }));
  const questions = readJson(join(folder, `${name}_train.json`));
  if (!Array.isArray(questions)) throw new Error(`bench data: ${name} questions are not an array`);
  const goldOf = name === 'musique' ? musiqueGold(documents) : hotpotGold(documents);
  const queries = questions.map((item, index) => {
    const question = record(item);
    return { id: text(question.id ?? question._id ?? index), text: text(question.question), gold: goldOf(question) };
  });
  return { name, documents, queries };
}

function corpusEntries(corpus: unknown): Array<{ title: string; text: string }> {
  if (Array.isArray(corpus)) {
    return corpus.map((item) => ({ title: text(record(item).title), text: text(record(item).text) }));
  }
  return Object.entries(record(corpus)).map(([title, sentences]) => ({
    title,
    text: Array.isArray(sentences) ? sentences.map(text).join('') : text(sentences),
  }));
}

type GoldOf = (question: Record<string, unknown>) => Map<string, number>;

function musiqueGold(documents: BenchDocument[]): GoldOf {
  const byContent = new Map(documents.map((doc) => [`${doc.title}\u0000${doc.text}`, doc.id]));
  return (question) => {
    const gold = new Map<string, number>();
    const paragraphs = Array.isArray(question.paragraphs) ? question.paragraphs.map(record) : [];
    for (const paragraph of paragraphs.filter((p) => p.is_supporting === true)) {
      const id = byContent.get(`${text(paragraph.title)}\u0000${text(paragraph.paragraph_text)}`);
      gold.set(id ?? `missing:${text(paragraph.title)}`, 1);
    }
    return gold;
  };
}

function hotpotGold(documents: BenchDocument[]): GoldOf {
  const byTitle = new Map(documents.map((doc) => [doc.title, doc.id]));
  return (question) => {
    const gold = new Map<string, number>();
    const facts = Array.isArray(question.supporting_facts) ? question.supporting_facts : [];
    for (const fact of facts) {
      const title = Array.isArray(fact) ? text(fact[0]) : '';
      gold.set(byTitle.get(title) ?? `missing:${title}`, 1);
    }
    return gold;
  };
}
