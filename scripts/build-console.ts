/** `npm run build:console`: builds console/dist with Vite when it is missing or stale (`--force`: always). */
import { rmSync } from 'node:fs';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../lib/console-build';

if (process.argv.includes('--force')) rmSync(CONSOLE_DIST, { recursive: true, force: true });
ensureConsoleBuilt((line) => console.error(`[kmem] ${line}`));
console.error(`[kmem] console built in ${CONSOLE_DIST}`);
