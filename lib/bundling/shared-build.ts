/**
 * One esbuild pass for every function of a synth. Bundled one at a time (the CDK's `NodejsFunction`),
 * each function re-parsed the same graph of functions/ and node_modules; in one `buildSync` with an entry
 * point per bundle, esbuild parses each module once and still writes each function's bundle as a file of
 * its own (no code splitting), byte for byte what a build of that function alone writes.
 *
 * The build goes into the cloud assembly directory (cdk.out), one directory per function beside the
 * asset directories the CDK bundles into, so the source maps' relative paths are the ones the asset
 * would get from a build of its own; each function's asset then takes (moves) its directory's files.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { sharedBuildOptions } from '../constructs/bundling';

/** What one function's asset holds, built from source. */
export interface FunctionBundle {
  /** The function's name: its directory in the shared build. */
  readonly name: string;
  /** The handler module (exports `handler`), bundled as `index.mjs`. */
  readonly entry: string;
  /** Modules the function starts as worker threads from a file: bundled file name (`.mjs`) -> source module. */
  readonly threads: Readonly<Record<string, string>>;
  /** Packages left out of this function's bundles and installed beside them (lib/bundling/worker-runtime.ts). */
  readonly runtimeModules: readonly string[];
}

/** True when `a` and `b` build the same asset. */
export function sameBundle(a: FunctionBundle, b: FunctionBundle): boolean {
  return JSON.stringify(bundleKey(a)) === JSON.stringify(bundleKey(b));
}

function bundleKey(bundle: FunctionBundle): unknown[] {
  return [bundle.name, bundle.entry, Object.entries(bundle.threads).sort(), [...bundle.runtimeModules].sort()];
}

let builds = 0;

/** The bundles of several functions, built together once per cloud assembly directory. */
export class SharedBuild {
  /** The build's directories in the assembly: `<prefix><function name>`. */
  private readonly prefix = `kmem-bundle-${++builds}.`;
  /** Per assembly directory, the functions whose built files wait there to be taken. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(readonly bundles: readonly FunctionBundle[]) {
    const names = bundles.map((bundle) => bundle.name);
    if (new Set(names).size !== names.length) throw new Error(`two functions bundled under one name: ${names.join(', ')}`);
  }

  /** True when this build makes `bundle` as given. */
  holds(bundle: FunctionBundle): boolean {
    return this.bundles.some((held) => sameBundle(held, bundle));
  }

  /**
   * Moves function `name`'s bundles (`index.mjs`, its threads, their source maps) into `outputDir`, a
   * directory of the cloud assembly; builds every function first unless that was done for this assembly
   * and `name`'s files are still waiting.
   */
  bundleInto(name: string, outputDir: string): void {
    const outdir = dirname(outputDir);
    if (!this.waiting.get(outdir)?.has(name)) this.build(outdir);
    const built = join(outdir, `${this.prefix}${name}`);
    for (const file of readdirSync(built)) renameSync(join(built, file), join(outputDir, file));
    rmSync(built, { recursive: true, force: true });
    this.waiting.get(outdir)?.delete(name);
  }

  private build(outdir: string): void {
    for (const bundle of this.bundles) rmSync(join(outdir, `${this.prefix}${bundle.name}`), { recursive: true, force: true });
    const external = [...new Set(this.bundles.flatMap((bundle) => bundle.runtimeModules))];
    const result = buildSync(sharedBuildOptions(this.entryPoints(), outdir, external));
    this.checkExternals(result.metafile, outdir);
    this.waiting.set(outdir, new Set(this.bundles.map((bundle) => bundle.name)));
  }

  private entryPoints(): { in: string; out: string }[] {
    return this.bundles.flatMap((bundle) => [
      { in: bundle.entry, out: `${this.prefix}${bundle.name}/index` },
      ...Object.entries(bundle.threads).map(([file, source]) => {
        if (!file.endsWith('.mjs')) throw new Error(`thread bundle ${file} of ${bundle.name} must be an .mjs file`);
        return { in: source, out: `${this.prefix}${bundle.name}/${file.slice(0, -'.mjs'.length)}` };
      }),
    ]);
  }

  /**
   * The one build leaves out every function's runtime modules: a function that imports another's (not
   * installed in its asset) is refused here, as its own build would have bundled the module.
   */
  private checkExternals(metafile: Metafile | undefined, outdir: string): void {
    if (!metafile) throw new Error('esbuild returned no metafile');
    const allExternal = new Set(this.bundles.flatMap((bundle) => bundle.runtimeModules));
    for (const bundle of this.bundles) {
      const directory = `${this.prefix}${bundle.name}`;
      if (!existsSync(join(outdir, directory, 'index.mjs'))) throw new Error(`esbuild wrote no index.mjs for ${bundle.name}`);
      const imported = Object.entries(metafile.outputs)
        .filter(([file]) => basename(dirname(file)) === directory)
        .flatMap(([, output]) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
      const foreign = [...new Set(imported)].filter((path) => moduleOf(path, [...allExternal]) && !moduleOf(path, bundle.runtimeModules));
      if (foreign.length) throw new Error(`function ${bundle.name} imports ${foreign.join(', ')}, installed only beside another function`);
    }
  }
}

/** The module of `modules` that import `path` names (the module itself or a file of it). */
function moduleOf(path: string, modules: readonly string[]): string | undefined {
  return modules.find((module) => path === module || path.startsWith(`${module}/`));
}
