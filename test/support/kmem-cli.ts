/**
 * The operator command (`bin/kmem.ts`) in a process of its own, as an operator runs it, on the data
 * directory `dataDir` (a local runtime running on it is found through its runtime.json). It runs from the
 * bundle the global setup made of it (test/support/kmem-cli-bundle.ts): a process starts in about a second
 * instead of the many seconds tsx takes to compile and load its modules.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { REPO_ROOT } from '../../lib/paths';

/** How the command ended: its exit code, its stdout lines (the last one is a new key) and its stderr. */
export interface KmemRun {
  readonly code: number;
  readonly stdout: string[];
  readonly stderr: string;
}

/** Runs `kmem accounts ...args` on `dataDir`; never throws on a failed command (see `code`). */
export async function kmemAccounts(dataDir: string, ...args: string[]): Promise<KmemRun> {
  const lines = (text: string) => text.trim().split('\n').filter(Boolean);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [inject('kmem').kmemCommand, 'accounts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, KMEM_DATA_DIR: dataDir },
    });
    return { code: 0, stdout: lines(stdout), stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: lines(failed.stdout ?? ''), stderr: failed.stderr ?? '' };
  }
}
