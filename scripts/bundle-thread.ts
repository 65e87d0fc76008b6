/**
 * A function asset's `afterBundling` step: `tsx scripts/bundle-thread.ts <source> <outfile> <external>...`
 * bundles a module a function starts as a worker thread from a file (the extraction sandbox's thread)
 * beside the function's handler, with the handler's esbuild settings (lib/constructs/bundling.ts).
 */
import { build } from 'esbuild';
import { esbuildOptions } from '../lib/constructs/bundling';

const [source, outfile, ...external] = process.argv.slice(2);
if (!source || !outfile?.endsWith('.mjs')) {
  console.error('usage: tsx scripts/bundle-thread.ts <source.ts> <outfile.mjs> <external module>...');
  process.exit(2);
}
try {
  await build(esbuildOptions(source, outfile, external));
} catch (error) {
  console.error(`[kmem] bundling ${source}: ${(error as Error).message}`);
  process.exit(1);
}
