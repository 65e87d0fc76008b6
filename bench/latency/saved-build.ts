/**
 * `--reuse DIR`: keep the servers' data dir, and what the build phase made there, across runs, so the
 * query phases can be repeated (profiled, compared) without building 100,000 chunks again. The state
 * file records the bootstrap API key, the build's options and its measurements.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LatencyOptions } from './options';
import type { BuildResult } from './phases';

export interface SavedBuild {
  /** The options that shaped the data; a run with other ones must not reuse it. */
  shape: BuildShape;
  apiKey: string;
  build: BuildResult;
}

type BuildShape = Pick<LatencyOptions, 'dataDir' | 'chunks' | 'files' | 'chunkSize'>;

const STATE_FILE = 'latency-build.json';

export function buildShape(options: LatencyOptions): BuildShape {
  return { dataDir: options.dataDir, chunks: options.chunks, files: options.files, chunkSize: options.chunkSize };
}

/** The build saved in `dir`, if any; throws when it was made with other options or lacks a wanted memory. */
export function loadSavedBuild(dir: string, options: LatencyOptions): SavedBuild | undefined {
  const path = join(dir, STATE_FILE);
  if (!existsSync(path)) return undefined;
  const saved = JSON.parse(readFileSync(path, 'utf8')) as SavedBuild;
  if (JSON.stringify(saved.shape) !== JSON.stringify(buildShape(options))) {
    throw new Error(`${dir} holds a build made with ${JSON.stringify(saved.shape)}; use another --reuse dir or the same options`);
  }
  const wanted = saved.build.memories.filter((memory) => options.only === undefined || memory.acceleration === (options.only === 'on'));
  if (wanted.length === 0) throw new Error(`${dir} holds no memory with acceleration ${options.only}`);
  return { ...saved, build: { ...saved.build, memories: wanted } };
}

export function saveBuild(dir: string, saved: SavedBuild): void {
  writeFileSync(join(dir, STATE_FILE), `${JSON.stringify(saved, null, 2)}\n`);
}
