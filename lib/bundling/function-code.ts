/**
 * Each function's Lambda code: an asset the CDK bundles locally (`ILocalBundling`, no Docker) by taking
 * the function's files from the stack's one esbuild build (lib/bundling/shared-build.ts) and, for the
 * worker, installing its runtime modules for Lambda's platform beside them (lib/bundling/worker-runtime.ts).
 * The asset's hash is its output's (`AssetHashType.OUTPUT`), so a synth of unchanged code gives the same
 * hash and a redeploy changes nothing; a synth that skips bundling (the stack tests) builds nothing.
 *
 * The stack declares every function it will create before the first is made (`declareFunctionBundles`):
 * the CDK bundles an asset as its construct is created, so the first function's bundling builds them all.
 * A function the stack did not declare (a construct synthesized on its own) is built alone.
 */
import { AssetHashType, DockerImage, type ILocalBundling, Stack } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { join } from 'node:path';
import { BUNDLED_EXTRACTION_THREAD } from '../../functions/adapters/sandbox/protocol';
import { type FunctionName, REPO_ROOT } from '../paths';
import { type FunctionBundle, SharedBuild } from './shared-build';
import { installRuntimeModules, WORKER_ARCHITECTURE, WORKER_RUNTIME_MODULES } from './worker-runtime';

/** The extraction thread's module, bundled beside the worker's handler (functions/adapters/sandbox). */
const EXTRACTION_THREAD_SOURCE = join(REPO_ROOT, 'functions', 'adapters', 'sandbox', 'thread.ts');

/**
 * What function `name` bundles: its handler from `entry`; the worker also its extraction thread (started
 * from a file) and its runtime modules (WebAssembly, a native addon, ffmpeg, OCR data: installed, not bundled).
 */
export function functionBundle(name: FunctionName, entry: string): FunctionBundle {
  if (name !== 'worker') return { name, entry, threads: {}, runtimeModules: [] };
  return {
    name,
    entry,
    threads: { [BUNDLED_EXTRACTION_THREAD]: EXTRACTION_THREAD_SOURCE },
    runtimeModules: WORKER_RUNTIME_MODULES,
  };
}

const declared = new WeakMap<Stack, SharedBuild>();

/** Declares the functions `stack` will create, so that one build makes them all. */
export function declareFunctionBundles(stack: Stack, bundles: readonly FunctionBundle[]): void {
  if (declared.has(stack)) throw new Error(`function bundles of ${stack.node.path} declared twice`);
  declared.set(stack, new SharedBuild(bundles));
}

/**
 * Never pulled: the assets bundle locally (`tryBundle` builds or throws), but the CDK's bundling options
 * require an image for the Docker bundling it would fall back to.
 */
const NO_DOCKER_IMAGE = DockerImage.fromRegistry('kmem-bundles-locally-without-docker');

/**
 * The Lambda code of `bundle` for a function in `scope`'s stack; `install` false leaves the runtime
 * modules out (the tests' synth, `kmem:skipRuntimeModules`).
 */
export function functionCode(scope: IConstruct, bundle: FunctionBundle, install: boolean): Code {
  const stackBuild = declared.get(Stack.of(scope));
  const build = stackBuild?.holds(bundle) ? stackBuild : new SharedBuild([bundle]);
  const installs = install && bundle.runtimeModules.length > 0;
  const local: ILocalBundling & { readonly bundle: FunctionBundle; readonly installs: boolean } = {
    // kept as data: the CDK keys its asset cache on the bundling options' JSON
    bundle,
    installs,
    tryBundle(outputDir) {
      build.bundleInto(bundle.name, outputDir);
      if (installs) installRuntimeModules(REPO_ROOT, outputDir, WORKER_ARCHITECTURE, bundle.runtimeModules);
      return true;
    },
  };
  return Code.fromAsset(REPO_ROOT, { assetHashType: AssetHashType.OUTPUT, bundling: { image: NO_DOCKER_IMAGE, local } });
}
