// Installs the project's dependencies when they are missing or older than package-lock.json,
// so that `npm start` and `npm test` work from a clean clone with nothing installed by hand.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  // `npm install` honours the lock file; `npm ci` refuses locks that lack other platforms' optional packages,
  // which this registry mirror does not list. `--prefer-offline` takes a package npm's cache already holds
  // without asking the registry again (the lock pins each version and its integrity, so the result is the
  // same): on a machine that has installed before, 39 CPU-seconds where asking took 52 (docs/testing.md).
  const command = 'npm install --no-audit --no-fund --prefer-offline';
  console.error(`[kmem] installing dependencies: ${command}`);
  // the installer's output goes to stderr: stdout may be a protocol stream (`npm run kmem -- mcp` speaks MCP on it)
  execSync(command, { cwd: root, stdio: ['ignore', 2, 'inherit'] });
}

// The offline speech recogniser (Debian's pocketsphinx) for audio and video files: installed when this
// runs as root and it is missing; otherwise the script says how to get it, and audio files fail with that.
execSync(`sh ${JSON.stringify(join(root, 'scripts', 'install-speech.sh'))}`, { stdio: ['ignore', 'ignore', 'inherit'] });
