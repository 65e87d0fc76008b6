/** The console's build is redone when a source changes, the typed client it calls the API through included. */
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleBuildIsStale, ensureConsoleBuilt } from '../../lib/console-build';
import { REPO_ROOT } from '../../lib/paths';

describe('the console build', () => {
  it('is stale when a file of packages/client changes after it was built', () => {
    ensureConsoleBuilt();
    expect(consoleBuildIsStale()).toBe(false);
    const source = join(REPO_ROOT, 'packages', 'client', 'src', 'errors.ts');
    const { atime, mtime } = statSync(source);
    try {
      const later = new Date(Date.now() + 60_000);
      utimesSync(source, later, later);
      expect(consoleBuildIsStale()).toBe(true);
    } finally {
      utimesSync(source, atime, mtime);
    }
    expect(consoleBuildIsStale()).toBe(false);
  });
});
