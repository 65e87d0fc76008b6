/**
 * The console's static build (console/dist, made by Vite): built when missing or older than its sources,
 * so `npm start`, the tests and `cdk synth` work from a clean clone. Build output is never committed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, REPO_ROOT } from './paths';

const CONSOLE_DIR = join(REPO_ROOT, 'console');
export const CONSOLE_DIST = join(CONSOLE_DIR, 'dist');
const BUILT_MARKER = join(CONSOLE_DIST, 'index.html');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/** What the build reads: the console's own files and the typed client it calls the API through. */
const CONSOLE_SOURCES = [
  ...['src', 'index.html', 'vite.config.ts'].map((name) => join(CONSOLE_DIR, name)),
  join(REPO_ROOT, 'packages', 'client', 'src'),
];

/** True when console/dist is missing or a source (or the lock file) changed after it was built. */
export function consoleBuildIsStale(): boolean {
  if (!existsSync(BUILT_MARKER)) return true;
  const sources = CONSOLE_SOURCES.map(newestSource);
  return Math.max(...sources, statSync(LOCK_FILE).mtimeMs) > statSync(BUILT_MARKER).mtimeMs;
}

/** Builds the console with Vite when it is stale (a few seconds); synchronous, so `cdk synth` can call it. */
export function ensureConsoleBuilt(log: (line: string) => void = () => undefined): void {
  if (!consoleBuildIsStale()) return;
  log('building the console (vite)');
  const vite = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', join(CONSOLE_DIR, 'vite.config.ts')], {
    cwd: CONSOLE_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
