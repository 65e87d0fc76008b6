/**
 * The operator command (`bin/kmem.ts`) bundled once for the test run (global setup) so that each call of it
 * (test/support/kmem-cli.ts) is a plain `node` process: bin/kmem.ts and the project's modules in one ES
 * module, the packages imported from node_modules as they are, and each module's `import.meta.url` kept as
 * its source file's (so threads, data files and createRequire resolve as they do from the sources). Started
 * with tsx instead, each call compiled and loaded some 700 modules through tsx's loader: 5 to 20 s a call on
 * a loaded 2-core machine (three files make 19 calls), against 0.4 to 7 s for the bundle.
 * No vitest import here: the global setup, which runs outside the test workers, imports it.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { REPO_ROOT } from '../../lib/paths';

/** Where the bundles go: inside the repository, so the bundle's package imports resolve from its node_modules (git-ignored). */
const BUNDLES = join(REPO_ROOT, '.test-out');

/** Each project module's `import.meta.url` as its source file's URL, not the bundle's. */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (file) => {
      if (file.path.includes('/node_modules/')) return undefined;
      const contents = readFileSync(file.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file.path).href));
      return { contents, loader: /\.m?ts$/.test(file.path) ? 'ts' : 'js' };
    });
  },
};

/** Bundles bin/kmem.ts into a new folder under .test-out: the bundle's path (remove its folder when done). */
export const bundleKmemCommand = (): Promise<string> => bundleEntry('kmem.ts');

/** Bundles `bin/<entry>` the same way (the soak's `npm start` entry too): the bundle's path (remove its folder when done). */
export async function bundleEntry(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  mkdirSync(BUNDLES, { recursive: true });
  const outfile = join(mkdtempSync(join(BUNDLES, `${entry.replace(/\.ts$/, '')}-`)), entry.replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [join(REPO_ROOT, 'bin', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [sourceUrls],
    logLevel: 'warning',
  });
  return outfile;
}
