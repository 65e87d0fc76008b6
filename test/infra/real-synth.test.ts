/**
 * What a user runs: `npx cdk synth` in a clean copy of the repository (its tracked files; the installed
 * node_modules linked in for the project's own packages), with cdk.json's context and nothing skipped, so
 * the worker's runtime modules are really installed by the synth's bundling. The worker's asset must hold
 * the Lambda platform's binaries (the canvas addon and ffmpeg for its architecture, the OCR model) and no
 * other platform's, every API function's asset must stay under 2 MB, and the lock file must be untouched.
 *
 * The same synth's bundles (one synth with bundling for the whole suite: it is the slowest step of the
 * infra tests): one ES module per function with the createRequire banner and a source map beside it,
 * importable by Node from its asset alone, carrying nothing of the local runtime; the worker's extraction
 * thread beside it extracts a file; and the synth's one esbuild pass for all functions writes a function's
 * bundle and source map byte for byte as the bundle bench's build of that function alone (bench/bundles.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED_EXTRACTION_THREAD,
  type SandboxData,
  type SandboxReply,
  type SandboxRequest,
} from '../../functions/adapters/sandbox/protocol';
import { catalog } from '../../functions/catalog';
import { loadConfig } from '../../functions/config';
import {
  BUNDLE_SIZE_LIMIT,
  CREATE_REQUIRE_BANNER,
  esbuildOptions,
  WORKER_ARCHITECTURE,
  WORKER_BUNDLE_SIZE_LIMIT,
} from '../../lib/constructs/bundling';
import { REPO_ROOT } from '../../lib/paths';
import {
  cleanCopy,
  directorySize,
  elfMachine,
  failureLines,
  lambdaFunctions,
  run,
  SYNTH_TIMEOUT_MS,
  type SynthesizedFunction,
  zippedSize,
} from './support/clean-synth';

/** Lambda's limit on a function's unzipped code (bytes). */
const LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024;

let copy: string;
let synth: { status: number | null; output: string; seconds: number };
let functions: SynthesizedFunction[];
let benchMetaDir: string;

beforeAll(async () => {
  copy = cleanCopy();
  const started = Date.now();
  synth = { ...(await run('npx', ['cdk', 'synth', '--quiet'], copy)), seconds: (Date.now() - started) / 1000 };
  functions = synth.status === 0 ? lambdaFunctions(join(copy, 'cdk.out')) : [];
  // the bench's build of one function alone, beside the assets (so its source map's paths compare)
  benchMetaDir = join(copy, 'cdk.out', 'bench-alone.meta');
  await build(esbuildOptions(join(copy, 'functions', 'meta', 'handler.ts'), join(benchMetaDir, 'index.mjs')));
  // The bundles must stand on their own, as on Lambda: unlink the copy's node_modules, so a bundle's bare
  // imports resolve only inside its asset (the worker's runtime modules), never from the repository's install.
  unlinkSync(join(copy, 'node_modules'));
}, SYNTH_TIMEOUT_MS + 60_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npx cdk synth from a clean copy', () => {
  it('exits 0', () => {
    expect(synth.status, failureLines(synth.output)).toBe(0);
    console.log(`npx cdk synth: ${synth.seconds.toFixed(1)} s (load average ${loadavg()[0]?.toFixed(1)})`);
  });

  it('leaves the lock file as it was', () => {
    expect(readFileSync(join(copy, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'));
  });

  it("ships the worker with the Lambda platform's canvas addon, ffmpeg and OCR model, and no other platform's", () => {
    const worker = functions.find((fn) => fn.service === 'kmem-worker');
    expect(worker?.architecture).toBe(WORKER_ARCHITECTURE === 'arm64' ? 'arm64' : 'x86_64');
    const modules = join(worker?.assetDir ?? '', 'node_modules');
    const cpu = WORKER_ARCHITECTURE;
    const addon = join(modules, '@napi-rs', `canvas-linux-${cpu}-gnu`, `skia.linux-${cpu}-gnu.node`);
    const ffmpeg = join(modules, '@ffmpeg-installer', `linux-${cpu}`, 'ffmpeg');
    expect(elfMachine(addon)).toBe(cpu);
    expect(elfMachine(ffmpeg)).toBe(cpu);
    expect(statSync(ffmpeg).mode & 0o111, 'ffmpeg is executable').not.toBe(0);
    expect(statSync(join(modules, '@tesseract.js-data', 'eng', '4.0.0_best_int', 'eng.traineddata.gz')).size).toBeGreaterThan(1_000_000);
    expect(existsSync(join(modules, 'tesseract.js', 'package.json'))).toBe(true);
    expect(existsSync(join(modules, 'tesseract.js-core', 'package.json'))).toBe(true);
    const platformPackages = [...readdirSync(join(modules, '@napi-rs')), ...readdirSync(join(modules, '@ffmpeg-installer'))];
    expect(platformPackages.sort()).toEqual(['canvas', `canvas-linux-${cpu}-gnu`, 'ffmpeg', `linux-${cpu}`]);
    const size = directorySize(worker?.assetDir ?? '');
    expect(size, 'Lambda takes at most 250 MB unzipped').toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
    console.log(`worker asset: ${(size / 1048576).toFixed(1)} MB; ${addon.slice(modules.length + 1)}, ${ffmpeg.slice(modules.length + 1)}`);
  });

  it("keeps every API function's asset (the zip Lambda receives) and its bundle under 2 MB", () => {
    const api = functions.filter((fn) => fn.service !== 'kmem-worker');
    expect(api.length).toBeGreaterThanOrEqual(7);
    const zipped = api.map((fn) => ({ ...fn, zipped: zippedSize(fn.assetDir) })); // each asset deflated once
    for (const fn of zipped) {
      expect(fn.zipped, fn.service).toBeLessThan(BUNDLE_SIZE_LIMIT);
      expect(statSync(join(fn.assetDir, 'index.mjs')).size, fn.service).toBeLessThan(BUNDLE_SIZE_LIMIT);
    }
    console.log(`API assets zipped (KB): ${zipped.map((fn) => `${fn.service} ${Math.round(fn.zipped / 1024)}`).join(', ')}`);
  });
});

const WORKER_SERVICE = 'kmem-worker';
const workerOf = (): SynthesizedFunction => {
  const worker = functions.find((fn) => fn.service === WORKER_SERVICE);
  if (!worker) throw new Error('no worker function in cdk.out');
  return worker;
};

describe('function bundles', () => {
  it('bundles every function: one per endpoint group, and the worker', () => {
    const expected = [...new Set(catalog.map((route) => `kmem-${route.group}`)), WORKER_SERVICE].sort();
    expect(functions.map((fn) => fn.service).sort()).toEqual(expected);
  });

  it('emits an ES module with the createRequire banner and its source map, API functions under 2 MB', () => {
    for (const fn of functions) {
      const file = join(fn.assetDir, 'index.mjs');
      expect(readFileSync(file, 'utf8').startsWith(CREATE_REQUIRE_BANNER), fn.service).toBe(true);
      const limit = fn.service === WORKER_SERVICE ? WORKER_BUNDLE_SIZE_LIMIT : BUNDLE_SIZE_LIMIT;
      expect(statSync(file).size, fn.service).toBeLessThan(limit);
      expect(existsSync(`${file}.map`), fn.service).toBe(true);
    }
  });

  it('imports in a fresh Node process from its asset alone and exports a handler function', () => {
    expect(existsSync(join(copy, 'node_modules')), "the copy's node_modules is unlinked").toBe(false);
    for (const fn of functions) {
      const url = pathToFileURL(join(fn.assetDir, 'index.mjs')).href;
      const script = `const m = await import(${JSON.stringify(url)}); console.log(typeof m.handler);`;
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', KMEM_TABLE_NAME: 't', KMEM_BUCKET_NAME: 'b' },
      });
      const outcome = { fn: fn.service, out: result.stdout.trim(), err: result.status === 0 ? '' : result.stderr };
      expect(outcome).toEqual({ fn: fn.service, out: 'function', err: '' });
    }
  });

  it('carries nothing of the local runtime: no file queue, no module of functions/local', () => {
    for (const fn of functions) {
      const map = JSON.parse(readFileSync(join(fn.assetDir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
      const local = map.sources.filter((source) => /functions\/local\/|adapters\/queue\/local-queue/.test(source));
      expect({ fn: fn.service, local }).toEqual({ fn: fn.service, local: [] });
    }
  });
});

describe("the worker's extraction thread", () => {
  it('is bundled beside the worker, with the banner and its source map, and extracts a file in a worker thread', async () => {
    const file = join(workerOf().assetDir, BUNDLED_EXTRACTION_THREAD);
    expect(readFileSync(file, 'utf8').startsWith(CREATE_REQUIRE_BANNER)).toBe(true);
    expect(existsSync(`${file}.map`)).toBe(true);
    const thread = new Worker(pathToFileURL(file), { workerData: { module: '', config: loadConfig({}) } satisfies SandboxData });
    try {
      const replies = new Promise<SandboxReply[]>((resolve, reject) => {
        const seen: SandboxReply[] = [];
        thread.on('error', reject);
        thread.on('message', (reply: SandboxReply) => {
          seen.push(reply);
          if (reply.kind === 'ready') {
            const bytes = new TextEncoder().encode('The ferry leaves at noon.');
            const input = { bytes, fileType: 'text', name: 'ferry.txt', contentType: 'text/plain' } as const;
            thread.postMessage({ kind: 'extract', id: 1, input } satisfies SandboxRequest);
          } else resolve(seen);
        });
      });
      const [ready, outcome] = await replies;
      expect(ready).toEqual({ kind: 'ready' });
      expect(outcome).toMatchObject({
        kind: 'extracted',
        id: 1,
        extracted: { text: expect.stringContaining('The ferry leaves at noon.') },
      });
    } finally {
      await thread.terminate();
    }
  });
});

describe('the one esbuild pass', () => {
  it("writes each function's bundle and source map byte for byte as the bench's build of that function alone", () => {
    const meta = functions.find((fn) => fn.service === 'kmem-meta');
    expect(meta, 'the meta function').toBeDefined();
    for (const file of ['index.mjs', 'index.mjs.map']) {
      const shared = readFileSync(join(meta?.assetDir ?? '', file));
      const alone = readFileSync(join(benchMetaDir, file));
      expect(shared.equals(alone), file).toBe(true);
    }
  });

  it('leaves none of its build directories in cdk.out', () => {
    expect(readdirSync(join(copy, 'cdk.out')).filter((name) => name.startsWith('kmem-bundle-'))).toEqual([]);
  });
});
