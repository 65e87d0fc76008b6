/**
 * Retrieval latency of `GET /memory/` over HTTP at ≥ 100,000 chunks, with acceleration (HNSW) on and off.
 *
 *   npm run bench:latency [-- --chunks 100000 --files 200 --chunk-size 200 --queries 500 --connections 4
 *                            --duration 10 --restarts 4 --only on|off --cpu-prof DIR --reuse DIR]
 *
 * SciFact abstracts (../shared/bench-data/scifact, read in place) are packed into ~200 text files, enough
 * passes over the corpus to cut ≥ 100,000 chunks at chunkSize 200; the files are uploaded once and
 * ingested into two vector memories (acceleration off and on) through the API, timing each real index
 * build. Then the server is restarted on the same data for cold first queries, and the last server answers
 * the warm runs: SciFact claims with topK=10&facts=true, sequential and from concurrent clients. Prints a
 * markdown report with p50/p95/p99, req/s and the target verdict (warm p50 < 10 ms, p99 < 25 ms: #23); with several
 * `--top-k` values, also each claim asked at every one in rotating order (latency/topk-interleaved.ts).
 * With --cpu-prof, the warm server is profiled; summarise with
 * `npx tsx bench/support/profile-summary.ts DIR/*.cpuprofile`. With --reuse DIR, the data stays in DIR and
 * a later run with the same DIR and data options skips the build. Exits non-zero only when the harness fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCorpus, loadClaims } from './latency/corpus';
import { type LatencyOptions, parseLatencyOptions } from './latency/options';
import { buildPhase, queryPhase } from './latency/phases';
import { latencyReport } from './latency/report';
import { buildShape, loadSavedBuild, saveBuild } from './latency/saved-build';

async function main(options: LatencyOptions): Promise<void> {
  const wall = performance.now();
  const corpus = benchCorpus(options.dataDir, options);
  const claims = loadClaims(options.dataDir);
  progress(
    `${corpus.files.length} files, ${corpus.passes.toFixed(2)} passes, ${corpus.expectedChunks} chunks expected; ${claims.length} claims`,
  );
  const saved = options.reuseDir ? loadSavedBuild(options.reuseDir, options) : undefined;
  const apiKey = saved?.apiKey ?? `kmem_latency_${randomBytes(24).toString('base64url')}`;
  configureServers(apiKey);
  const dataDir = options.reuseDir ?? mkdtempSync(join(tmpdir(), 'kmem-latency-'));
  mkdirSync(dataDir, { recursive: true });
  try {
    if (saved) progress(`reusing the build in ${dataDir}`);
    const build = saved?.build ?? (await buildPhase(options, dataDir, corpus, progress));
    if (options.reuseDir && !saved) saveBuild(dataDir, { shape: buildShape(options), apiKey, build });
    const runs = await queryPhase(options, dataDir, build.memories, claims, progress);
    process.stdout.write(`${latencyReport(options, corpus, { ...build, reused: saved !== undefined }, runs).join('\n')}\n`);
    progress(`done in ${((performance.now() - wall) / 1000).toFixed(0)} s`);
    if (options.cpuProfileDir) progress(`warm server CPU profile written to ${options.cpuProfileDir}`);
  } finally {
    if (!options.reuseDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Environment the server processes inherit: one bootstrap key, so every restart serves the same account;
 * a token budget for the whole corpus twice; and a queue visibility above the longest index build, as the
 * stack sets it above the worker's timeout (at the 60 s default a long build would be delivered again).
 */
function configureServers(apiKey: string): void {
  process.env.KMEM_API_KEY = apiKey;
  process.env.KMEM_DEFAULT_TOKEN_LIMIT = '1000000000';
  process.env.KMEM_LOCAL_QUEUE_VISIBILITY_SECONDS = '900';
}

function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

Promise.resolve()
  .then(() => main(parseLatencyOptions()))
  .catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
