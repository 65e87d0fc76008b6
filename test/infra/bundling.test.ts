/**
 * The real bundles, as `npx cdk synth` builds them: one ES module per function with the createRequire
 * banner, a source map beside it, under 2 MB, importable by Node; and the CDK bundling options agree with
 * the esbuild options the bundle bench (bench/bundles.ts) builds with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED_EXTRACTION_THREAD,
  type SandboxData,
  type SandboxReply,
  type SandboxRequest,
} from '../../functions/adapters/sandbox/protocol';
import { loadConfig } from '../../functions/config';
import {
  BUNDLE_SIZE_LIMIT,
  WORKER_BUNDLE_SIZE_LIMIT,
  CREATE_REQUIRE_BANNER,
  esbuildOptions,
  lambdaBundling,
} from '../../lib/constructs/bundling';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;
let functions: ServiceFunction[];

beforeAll(() => {
  synth = synthesize({ bundle: true });
  const worker = synth.stack.ingest.queueWorker.worker;
  functions = [...synth.stack.api.functions.values(), ...(worker ? [worker] : [])];
});

/** The bundle directory of a function in the cloud assembly. */
function bundleDir(fn: ServiceFunction): string {
  const asset = fn.function.node.findChild('Code');
  if (!(asset instanceof Asset)) throw new Error(`no code asset for ${fn.node.path}`);
  return join(synth.assembly.directory, asset.assetPath);
}

describe('function bundles', () => {
  it('bundles every function', () => {
    expect(functions.length).toBeGreaterThanOrEqual(synth.stack.api.functions.size);
  });

  it('emits an ES module with the createRequire banner and its source map, API functions under 2 MB', () => {
    const worker = synth.stack.ingest.queueWorker.worker;
    for (const fn of functions) {
      const file = join(bundleDir(fn), 'index.mjs');
      expect(readFileSync(file, 'utf8').startsWith(CREATE_REQUIRE_BANNER), fn.node.id).toBe(true);
      const limit = fn === worker ? WORKER_BUNDLE_SIZE_LIMIT : BUNDLE_SIZE_LIMIT;
      expect(statSync(file).size, fn.node.id).toBeLessThan(limit);
      expect(existsSync(`${file}.map`), fn.node.id).toBe(true);
    }
  });

  it('imports in a fresh Node process and exports a handler function', () => {
    for (const fn of functions) {
      const url = pathToFileURL(join(bundleDir(fn), 'index.mjs')).href;
      const script = `const m = await import(${JSON.stringify(url)}); console.log(typeof m.handler);`;
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', KMEM_TABLE_NAME: 't', KMEM_BUCKET_NAME: 'b' },
      });
      const outcome = { fn: fn.node.id, out: result.stdout.trim(), err: result.status === 0 ? '' : result.stderr };
      expect(outcome).toEqual({ fn: fn.node.id, out: 'function', err: '' });
    }
  });
});

describe("the worker's extraction thread", () => {
  it('is bundled beside the worker, with the banner and its source map, and extracts a file in a worker thread', async () => {
    const worker = synth.stack.ingest.queueWorker.worker;
    if (!worker) throw new Error('no worker function');
    const file = join(bundleDir(worker), BUNDLED_EXTRACTION_THREAD);
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

describe('what the bundles leave out', () => {
  it('carries nothing of the local runtime: no file queue, no module of functions/local', () => {
    for (const fn of functions) {
      const map = JSON.parse(readFileSync(join(bundleDir(fn), 'index.mjs.map'), 'utf8')) as { sources: string[] };
      const local = map.sources.filter((source) => /functions\/local\/|adapters\/queue\/local-queue/.test(source));
      expect({ fn: fn.node.id, local }).toEqual({ fn: fn.node.id, local: [] });
    }
  });
});

describe('bundling options', () => {
  it('builds the same bundle in CDK and in the bench', () => {
    const cdk = lambdaBundling();
    const bench = esbuildOptions('entry.ts', 'out/index.mjs');
    expect(cdk.format).toBe(OutputFormat.ESM);
    expect(bench.format).toBe('esm');
    expect(bench.outfile?.endsWith('.mjs')).toBe(true);
    expect({
      target: cdk.target,
      minify: cdk.minify,
      sourcemap: cdk.sourceMap,
      sourcesContent: cdk.sourcesContent,
      mainFields: cdk.mainFields,
      external: cdk.externalModules,
      banner: cdk.banner,
      treeShaking: cdk.esbuildArgs?.['--tree-shaking'] === 'true',
    }).toEqual({
      target: bench.target,
      minify: bench.minify,
      sourcemap: bench.sourcemap,
      sourcesContent: bench.sourcesContent,
      mainFields: bench.mainFields,
      external: bench.external,
      banner: bench.banner?.js,
      treeShaking: bench.treeShaking,
    });
  });
});
