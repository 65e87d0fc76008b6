/**
 * The synth's one esbuild pass (lib/bundling/shared-build.ts) on small modules of its own: each function's
 * files moved into the directory its asset is bundled in, the build's directories gone after, a function
 * taken twice built again, and a function that imports another's runtime module refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FunctionBundle, SharedBuild, sameBundle } from '../../lib/bundling/shared-build';
import { CREATE_REQUIRE_BANNER } from '../../lib/constructs/bundling';

const root = mkdtempSync(join(tmpdir(), 'kmem-shared-build-'));
const assembly = join(root, 'cdk.out');
const source = (name: string) => join(root, 'src', name);

beforeAll(() => {
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(assembly);
  writeFileSync(source('shared.ts'), "export const greeting = (name: string): string => 'hello ' + name;\n");
  writeFileSync(source('api.ts'), "import { greeting } from './shared';\nexport const handler = () => greeting('api');\n");
  writeFileSync(
    source('worker.ts'),
    "import { greeting } from './shared';\nimport addon from 'native-addon';\nexport const handler = () => greeting(String(addon));\n",
  );
  writeFileSync(source('thread.ts'), "import { greeting } from './shared';\nconsole.log(greeting('thread'));\n");
  writeFileSync(source('greedy.ts'), "import addon from 'native-addon';\nexport const handler = () => addon;\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const api: FunctionBundle = { name: 'api', entry: source('api.ts'), threads: {}, runtimeModules: [] };
const worker: FunctionBundle = {
  name: 'worker',
  entry: source('worker.ts'),
  threads: { 'side-thread.mjs': source('thread.ts') },
  runtimeModules: ['native-addon'],
};

/** A directory of the assembly as the CDK gives one to a local bundler. */
function assetDir(name: string): string {
  const dir = join(assembly, `bundling-temp-${name}-building`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
}

describe('SharedBuild', () => {
  it("moves each function's bundles and source maps into its asset directory and leaves no build directory", () => {
    const build = new SharedBuild([api, worker]);
    const workerDir = assetDir('worker');
    build.bundleInto('worker', workerDir);
    expect(readdirSync(workerDir).sort()).toEqual(['index.mjs', 'index.mjs.map', 'side-thread.mjs', 'side-thread.mjs.map']);
    const bundle = readFileSync(join(workerDir, 'index.mjs'), 'utf8');
    expect(bundle.startsWith(CREATE_REQUIRE_BANNER)).toBe(true);
    expect(bundle).toMatch(/from\s*"native-addon"/);
    const apiDir = assetDir('api');
    build.bundleInto('api', apiDir);
    expect(readdirSync(apiDir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    const map = JSON.parse(readFileSync(join(apiDir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.sort()).toEqual(['../../src/api.ts', '../../src/shared.ts']);
    expect(readdirSync(assembly).filter((name) => name.startsWith('kmem-bundle-'))).toEqual([]);
  });

  it('builds again for a function whose files were taken already', () => {
    const build = new SharedBuild([api]);
    const first = assetDir('api-first');
    build.bundleInto('api', first);
    const second = assetDir('api-second');
    build.bundleInto('api', second);
    expect(readFileSync(join(second, 'index.mjs'))).toEqual(readFileSync(join(first, 'index.mjs')));
  });

  it("refuses a function that imports another function's runtime module, naming both", () => {
    const greedy: FunctionBundle = { name: 'greedy', entry: source('greedy.ts'), threads: {}, runtimeModules: [] };
    const build = new SharedBuild([greedy, worker]);
    expect(() => build.bundleInto('greedy', assetDir('greedy'))).toThrow(
      /function greedy imports native-addon, installed only beside another function/,
    );
  });

  it('refuses two functions under one name and a thread that is not an .mjs file', () => {
    expect(() => new SharedBuild([api, { ...worker, name: 'api' }])).toThrow(/two functions bundled under one name/);
    const odd = new SharedBuild([{ ...worker, threads: { 'side-thread.js': source('thread.ts') } }]);
    expect(() => odd.bundleInto('worker', assetDir('odd'))).toThrow(/side-thread\.js of worker must be an \.mjs file/);
    expect(existsSync(join(assembly, 'bundling-temp-odd-building', 'index.mjs'))).toBe(false);
  });

  it('tells bundles apart by entry, threads and runtime modules, not by their order', () => {
    expect(sameBundle(worker, { ...worker, runtimeModules: ['native-addon'] })).toBe(true);
    expect(sameBundle(worker, { ...worker, entry: source('api.ts') })).toBe(false);
    expect(sameBundle(worker, { ...worker, threads: {} })).toBe(false);
  });
});
