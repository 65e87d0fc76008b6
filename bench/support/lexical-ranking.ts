/**
 * The lexical list of a ranking at the latency bench's size (bench/latency/corpus.ts: ~100k chunks of 200
 * characters from SciFact, 200 files, file names as titles), in process: the exhaustive scorer (every
 * posting of title + text and title fields into a dense array, then the top `candidates`) against the
 * pruned top-N of lexical-top-n.ts, in alternating rounds over the SciFact claims. Checks that both give
 * the same hits (ordinals and scores) for every claim, and prints wall and CPU ms a query for each (and
 * the pruned one's first pass, when the claims' lists are decoded and kept as they come), on a
 * plain index and on one composed of segments (large ones and one-file ones gathered, as after many
 * single-file ingestions).
 */
import { loadClaims, benchCorpus } from '../latency/corpus';
import { composeSegments } from '../../functions/engine/lexical/segment-compose';
import type { LexicalSegment } from '../../functions/engine/lexical/segment';
import { topKByScore } from '../../functions/engine/lexical/top-k';
import { addBm25Scores, queryTerms } from '../../functions/engine/retrieval/lexical-scorer';
import { lexicalTopN, type ScoredField } from '../../functions/engine/retrieval/lexical-top-n';
import { DEFAULT_RANK_PARAMS } from '../../functions/engine/retrieval/params';
import { buildRetrievalIndex, type RetrievalChunk } from '../../functions/engine/retrieval/retrieval-index';
import { chunkText, VECTOR_CHUNK_DEFAULTS } from '../../functions/engine/text/chunker';
import { GATHER_BELOW_ROWS } from '../../functions/engine/retrieval/vector-parts';

export interface RankingRow {
  layout: string;
  chunks: number;
  exhaustive: { wallMs: number; cpuMs: number };
  pruned: { wallMs: number; cpuMs: number };
  /** Wall ms a claim of the pruned top-N on its first pass, lists decoded and kept as claims meet them. */
  prunedFirstPassMs: number;
  /** Claims whose hits differ between the two (must be 0). */
  mismatches: number;
}

type Run = (query: string) => ReadonlyArray<{ ordinal: number; score: number }>;

const P = DEFAULT_RANK_PARAMS;

/** Both scorers over `fields`, `rounds` alternating rounds of all claims; the best round of each. */
function compare(layout: string, fields: ScoredField[], claims: readonly string[], rounds: number): RankingRow {
  const text = (fields[0] as ScoredField).segment;
  const scores = new Float64Array(text.docIds.length);
  const exhaustive: Run = (query) => {
    scores.fill(0);
    const terms = queryTerms(query, text);
    for (const { segment, params, scale } of fields) addBm25Scores(segment, terms, params, scores, scale);
    return topKByScore(scores, P.candidates).map((ordinal) => ({ ordinal, score: scores[ordinal] as number }));
  };
  const pruned: Run = (query) => lexicalTopN(fields, queryTerms(query, text), P.candidates).hits;
  let mismatches = 0;
  let firstPass = 0;
  for (const claim of claims) {
    const expected = exhaustive(claim);
    const started = performance.now();
    const found = pruned(claim);
    firstPass += performance.now() - started;
    if (JSON.stringify(expected) !== JSON.stringify(found)) mismatches++;
  }
  const best = { exhaustive: { wallMs: Infinity, cpuMs: Infinity }, pruned: { wallMs: Infinity, cpuMs: Infinity } };
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of [
      ['exhaustive', exhaustive],
      ['pruned', pruned],
    ] as const) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const claim of claims) run(claim);
      const wallMs = (performance.now() - started) / claims.length;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / claims.length;
      best[name] = { wallMs: Math.min(best[name].wallMs, wallMs), cpuMs: Math.min(best[name].cpuMs, cpuMs) };
    }
  }
  return { layout, chunks: text.docIds.length, ...best, prunedFirstPassMs: firstPass / claims.length, mismatches };
}

/** The text and title fields of the chunks of `files` composed of segments: the first files in `large` big parts, the rest one file each. */
async function composedFields(chunksByFile: RetrievalChunk[][], large: number): Promise<ScoredField[]> {
  const groups: RetrievalChunk[][] = [];
  const bigFiles = Math.floor(chunksByFile.length * 0.75);
  for (let g = 0; g < large; g++) groups.push(chunksByFile.slice((g * bigFiles) / large, ((g + 1) * bigFiles) / large).flat());
  for (const file of chunksByFile.slice(bigFiles)) groups.push(file);
  const indexes = await Promise.all(groups.map((chunks) => buildRetrievalIndex(chunks)));
  let next = 0;
  const maps = indexes.map((index) => Int32Array.from(index.text.docIds, () => next++));
  const parts = (field: 'text' | 'titles') => indexes.map((index, i) => ({ segment: index[field], ordinals: maps[i] as Int32Array }));
  const text = composeSegments(parts('text'), next, undefined, undefined, GATHER_BELOW_ROWS);
  const titles: LexicalSegment = composeSegments(parts('titles'), next, text, undefined, GATHER_BELOW_ROWS);
  return rankFields(text, titles);
}

function rankFields(text: LexicalSegment, titles: LexicalSegment): ScoredField[] {
  return [
    { segment: text, params: P.text, scale: 1 },
    { segment: titles, params: P.title, scale: P.titleWeight },
  ];
}

/** The rows for a plain and a composed index of about `chunks` chunks of the latency corpus. */
export async function measureRanking(dataDir: string, chunks: number, rounds: number): Promise<RankingRow[]> {
  const corpus = benchCorpus(dataDir, { files: 200, chunkSize: 200, chunks });
  const options = { chunkSize: 200, overlapPercent: VECTOR_CHUNK_DEFAULTS.overlapPercent };
  const chunksByFile = corpus.files.map((file) =>
    chunkText(file.text, options).map((chunk, i) => ({ id: `${file.name}#${i}`, fileId: file.name, text: chunk.text, title: file.name })),
  );
  const claims = loadClaims(dataDir);
  const plain = await buildRetrievalIndex(chunksByFile.flat());
  const rows = [compare('one segment', rankFields(plain.text, plain.titles), claims, rounds)];
  rows.push(compare('4 large segments + 50 one-file ones (gathered)', await composedFields(chunksByFile, 4), claims, rounds));
  return rows;
}

export function printRanking(rows: readonly RankingRow[], claims: number): void {
  console.log(
    `\nLexical list of a ranking (title + text and title fields, top ${P.candidates}), ${claims} SciFact claims, best of alternating rounds:\n`,
  );
  console.log('| index | chunks | exhaustive wall | exhaustive CPU | pruned wall | pruned CPU | pruned first pass wall | hits differing |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ms = (value: number) => `${value.toFixed(3)} ms`;
    console.log(
      `| ${row.layout} | ${row.chunks.toLocaleString('en')} | ${ms(row.exhaustive.wallMs)} | ${ms(row.exhaustive.cpuMs)} | ${ms(row.pruned.wallMs)} | ${ms(row.pruned.cpuMs)} | ${ms(row.prunedFirstPassMs)} | ${row.mismatches} |`,
    );
  }
}
