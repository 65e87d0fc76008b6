/**
 * The latency benchmark's data: SciFact abstracts packed into a few hundred text files that, cut with the
 * memory's chunk size, yield at least the target number of chunks; and the SciFact claims as queries.
 * When one pass over the corpus is not enough, further passes drop every k-th word (k varies per pass),
 * so they are not near-duplicates that retrieval would simply collapse; the last pass stops once the
 * target is reached.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkText, VECTOR_CHUNK_DEFAULTS } from '../../functions/engine/text/chunker';

export interface BenchFile {
  name: string;
  text: string;
}

export interface BenchCorpus {
  files: BenchFile[];
  /** Passes over the corpus (1 = each abstract once; the last pass may be partial). */
  passes: number;
  /** Chunks the project's chunker cuts from the files (what ingestion should publish). */
  expectedChunks: number;
  abstracts: number;
  characters: number;
}

interface Abstract {
  title: string;
  text: string;
}

const MAX_PASSES = 32;
/** Chunks added to the goal beyond a shortfall. */
const GOAL_STEP = 200;

export function loadClaims(dataDir: string): string[] {
  return jsonLines<{ text: string }>(join(dataDir, 'queries.jsonl')).map((claim) => claim.text);
}

export function benchCorpus(dataDir: string, plan: { files: number; chunkSize: number; chunks: number }): BenchCorpus {
  const abstracts = jsonLines<Abstract>(join(dataDir, 'corpus.jsonl')).map((doc) => `${doc.title}\n\n${doc.text}`);
  const options = { chunkSize: plan.chunkSize, overlapPercent: VECTOR_CHUNK_DEFAULTS.overlapPercent };
  const bodies: string[][] = Array.from({ length: plan.files }, () => []);
  const count = () => bodies.reduce((sum, body) => sum + chunkText(body.join('\n\n'), options).length, 0);
  let added = 0;
  let estimate = 0;
  let goal = plan.chunks;
  // Abstracts are added one at a time while the sum of their own chunk counts is below the goal; a file
  // packs sentences across abstracts, so it yields a few chunks fewer: the exact count decides, and a
  // shortfall raises the goal.
  for (let chunks = 0; added < MAX_PASSES * abstracts.length; goal += plan.chunks - chunks + GOAL_STEP) {
    while (estimate < goal && added < MAX_PASSES * abstracts.length) {
      const pass = Math.floor(added / abstracts.length);
      const abstract = abstracts[added % abstracts.length]!;
      const text = pass === 0 ? abstract : thinned(abstract, 2 + pass);
      bodies[added % plan.files]!.push(text);
      estimate += chunkText(text, options).length;
      added++;
    }
    chunks = count();
    if (chunks >= plan.chunks) {
      const files = bodies.map((body, i) => ({ name: `scifact-${String(i).padStart(3, '0')}.txt`, text: body.join('\n\n') }));
      const characters = files.reduce((sum, file) => sum + file.text.length, 0);
      return { files, passes: added / abstracts.length, expectedChunks: chunks, abstracts: abstracts.length, characters };
    }
  }
  throw new Error(`${MAX_PASSES} passes over the corpus make fewer than ${plan.chunks} chunks; lower --chunk-size`);
}

/** The text without every `every`-th word. */
function thinned(text: string, every: number): string {
  return text
    .split(' ')
    .filter((_, position) => position % every !== every - 1)
    .join(' ');
}

function jsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
