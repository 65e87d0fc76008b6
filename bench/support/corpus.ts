/**
 * The document corpora the ingestion benches upload, read where they lie in ../shared/bench-data (never
 * copied): SciFact's abstracts (corpus.jsonl) or MuSiQue's passages (HippoRAG's musique_train_corpus.json).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface BenchDoc {
  _id: string;
  title: string;
  text: string;
}

const BENCH_DATA = resolve(process.cwd(), '../shared/bench-data');

/** `corpus` is scifact or musique; `data` overrides its folder. */
export function readBenchCorpus(corpus: string, data: string | undefined): BenchDoc[] {
  if (corpus === 'musique') {
    const file = resolve(data ?? resolve(BENCH_DATA, 'hipporag'), 'musique_train_corpus.json');
    const passages = JSON.parse(readFileSync(file, 'utf8')) as Array<{ title: string; text: string }>;
    return passages.map((passage, i) => ({ _id: `passage-${i}`, title: passage.title, text: passage.text }));
  }
  if (corpus !== 'scifact') throw new Error(`--corpus: expected scifact or musique, got '${corpus}'`);
  return readFileSync(resolve(data ?? resolve(BENCH_DATA, 'scifact'), 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BenchDoc);
}
