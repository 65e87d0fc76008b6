/**
 * The esbuild settings of every function, in one place: the synth's one build of all functions
 * (lib/bundling/shared-build.ts) and the bundle bench (bench/bundles.ts) both derive theirs from `BUNDLE`,
 * so the bench measures what is deployed.
 *
 * - ESM (`.mjs`) with a `createRequire` banner: CommonJS dependencies bundled into an ES module still
 *   call `require` for Node built-ins, which ES modules lack.
 * - Nothing external, `@aws-sdk/*` included: the SDK version is pinned in package-lock.json and tested
 *   with (lib-dynamodb and the clients must match), not whatever the runtime ships that month; tree-shaken
 *   and minified, the bundles stay well under the 2 MB target and one file loads faster than resolving
 *   the runtime's SDK from node_modules (bench/bundles.ts prints both numbers).
 * - Source maps (without sources content) ship beside each bundle and functions run with
 *   `--enable-source-maps`, so logged stack traces name TypeScript files and lines. Measured with
 *   bench/bundles.ts (interleaved, 21 runs), it adds nothing visible to the cold import; a stage can
 *   still turn it off (`sourceMapStackTraces: false`).
 */
import type { BuildOptions } from 'esbuild';

/** Defines `require` in the ES module bundle for bundled CommonJS code. */
export const CREATE_REQUIRE_BANNER =
  "import { createRequire as __kmemCreateRequire } from 'node:module';const require = __kmemCreateRequire(import.meta.url);";

/** The shared esbuild settings (everything but what is built, where to, and what stays external). */
const BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  treeShaking: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: CREATE_REQUIRE_BANNER },
  charset: 'utf8',
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** `NODE_OPTIONS` that maps stack traces through the bundle's source map (see `sourceMapStackTraces`). */
export const SOURCE_MAP_NODE_OPTIONS = '--enable-source-maps';

/** Bundle size above which the bench flags a function (bytes). */
export const BUNDLE_SIZE_LIMIT = 2 * 1024 * 1024;
/** The worker carries the tokenizer and the extractors; it is not on a request path, so it may be larger. */
export const WORKER_BUNDLE_SIZE_LIMIT = 25 * 1024 * 1024;

export { WORKER_ARCHITECTURE, WORKER_RUNTIME_MODULES } from '../bundling/worker-runtime';

/** Context key that leaves the runtime modules out of the asset (the tests' synth: no npm install). */
export const SKIP_RUNTIME_MODULES_CONTEXT = 'kmem:skipRuntimeModules';

/** esbuild options of one function's bundle, writing `outfile` (an `.mjs` path): the bundle bench's. */
export function esbuildOptions(entry: string, outfile: string, runtimeModules: readonly string[] = []): BuildOptions {
  return { ...settings(), entryPoints: [entry], outfile, external: [...runtimeModules] };
}

/**
 * esbuild options of the synth's one build: each entry point (`in`: its module, `out`: its path under
 * `outdir`, without extension) is written as `<out>.mjs` with its source map, each file standalone (no
 * code splitting); `external` stays out of every bundle.
 */
export function sharedBuildOptions(
  entryPoints: readonly { readonly in: string; readonly out: string }[],
  outdir: string,
  external: readonly string[],
): BuildOptions {
  return {
    ...settings(),
    entryPoints: entryPoints.map((entry) => ({ ...entry })),
    outdir,
    outExtension: { '.js': '.mjs' },
    external: [...external],
    splitting: false,
    metafile: true,
  };
}

function settings(): BuildOptions {
  return { ...BUNDLE, mainFields: [...BUNDLE.mainFields], banner: { ...BUNDLE.banner } };
}
