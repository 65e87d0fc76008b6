/**
 * The esbuild settings of every function, in one place: the CDK `NodejsFunction`s and the bundle bench
 * (bench/bundles.ts) both derive theirs from `BUNDLE`, so the bench measures what is deployed.
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
import { type BundlingOptions, Charset, type ICommandHooks, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { REPO_ROOT } from '../paths';
import { WORKER_ARCHITECTURE } from '../bundling/worker-runtime';

/** Defines `require` in the ES module bundle for bundled CommonJS code. */
export const CREATE_REQUIRE_BANNER =
  "import { createRequire as __kmemCreateRequire } from 'node:module';const require = __kmemCreateRequire(import.meta.url);";

/** The shared esbuild settings. */
const BUNDLE = {
  target: 'node20',
  minify: true,
  treeShaking: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  external: [] as string[],
  banner: CREATE_REQUIRE_BANNER,
} as const;

/** `NODE_OPTIONS` that maps stack traces through the bundle's source map (see `sourceMapStackTraces`). */
export const SOURCE_MAP_NODE_OPTIONS = '--enable-source-maps';

/** Bundle size above which the bench flags a function (bytes). */
export const BUNDLE_SIZE_LIMIT = 2 * 1024 * 1024;
/** The worker carries the tokenizer and the extractors; it is not on a request path, so it may be larger. */
export const WORKER_BUNDLE_SIZE_LIMIT = 25 * 1024 * 1024;

export { WORKER_ARCHITECTURE, WORKER_RUNTIME_MODULES } from '../bundling/worker-runtime';

/** Context key that leaves the runtime modules out of the asset (the tests' synth: no npm install). */
export const SKIP_RUNTIME_MODULES_CONTEXT = 'kmem:skipRuntimeModules';

/**
 * `NodejsFunction` bundling options built from `BUNDLE`; `runtimeModules` stay external and, unless
 * `install` is false, are installed beside the bundle for linux/WORKER_ARCHITECTURE by the
 * `afterBundling` hook (the CDK's `nodeModules` would install the host's binaries, with an `npm ci` that
 * refuses this lock file: see lib/bundling/worker-runtime.ts). `threads` (file name -> source module)
 * are bundled beside the handler by the same hook, with the same settings, for the worker threads the
 * function starts from a file (the extraction sandbox).
 */
export function lambdaBundling(
  runtimeModules: readonly string[] = [],
  install = true,
  threads: Readonly<Record<string, string>> = {},
): BundlingOptions {
  const installs = runtimeModules.length && install;
  const hooks =
    installs || Object.keys(threads).length ? afterBundlingHooks(installs ? runtimeModules : [], threads, runtimeModules) : undefined;
  return {
    ...(hooks ? { commandHooks: hooks } : {}),
    format: OutputFormat.ESM,
    target: BUNDLE.target,
    minify: BUNDLE.minify,
    sourceMap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    externalModules: [...BUNDLE.external, ...runtimeModules],
    banner: BUNDLE.banner,
    charset: Charset.UTF8,
    logLevel: LogLevel.WARNING,
    esbuildArgs: { '--tree-shaking': String(BUNDLE.treeShaking) },
  };
}

/** esbuild JS API options equivalent to `lambdaBundling()`, writing `outfile` (an `.mjs` path). */
export function esbuildOptions(entry: string, outfile: string, runtimeModules: readonly string[] = []): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE.target,
    minify: BUNDLE.minify,
    treeShaking: BUNDLE.treeShaking,
    sourcemap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    external: [...BUNDLE.external, ...runtimeModules],
    banner: { js: BUNDLE.banner },
    charset: 'utf8',
    logLevel: 'warning',
  };
}

/**
 * The hook that bundles `threads` and installs `install` (runtime modules) into the bundle directory
 * (local bundling: host paths); `external` stays out of the thread bundles as out of the handler's.
 */
function afterBundlingHooks(
  install: readonly string[],
  threads: Readonly<Record<string, string>>,
  external: readonly string[],
): ICommandHooks {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const script = (name: string) => join(REPO_ROOT, 'scripts', name);
  const quote = (value: string) => JSON.stringify(value);
  const run = (name: string, args: readonly string[]) => [process.execPath, tsx, script(name), ...args].map(quote).join(' ');
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => [
      ...Object.entries(threads).map(([file, source]) => run('bundle-thread.ts', [source, join(outputDir, file), ...external])),
      ...(install.length ? [run('install-worker-modules.ts', [outputDir, WORKER_ARCHITECTURE, ...install])] : []),
    ],
  };
}
