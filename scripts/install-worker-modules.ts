/**
 * The worker asset's `afterBundling` step: `tsx scripts/install-worker-modules.ts <outputDir> <cpu> <module>...`
 * installs the worker's runtime modules for linux/<cpu> into the asset (see lib/bundling/worker-runtime.ts).
 */
import { fileURLToPath } from 'node:url';
import { installRuntimeModules, type LambdaCpu } from '../lib/bundling/worker-runtime';

const [outputDir, cpu, ...modules] = process.argv.slice(2);
if (!outputDir || (cpu !== 'arm64' && cpu !== 'x64') || !modules.length) {
  console.error('usage: tsx scripts/install-worker-modules.ts <outputDir> <arm64|x64> <module>...');
  process.exit(2);
}
try {
  installRuntimeModules(fileURLToPath(new URL('..', import.meta.url)), outputDir, cpu as LambdaCpu, modules);
} catch (error) {
  console.error(`[kmem] ${(error as Error).message}`);
  process.exit(1);
}
