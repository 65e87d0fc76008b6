/**
 * The cognitive-complexity gate (biome.jsonc: complexity/noExcessiveCognitiveComplexity, max 15, an error):
 * the project's own Biome configuration, run on a small tree of its own, refuses a tangled function in
 * functions/, takes it with a `biome-ignore` that gives a reason, and lets tests spell out their cases.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BIOME = join(REPOSITORY, 'node_modules', '.bin', 'biome');

const TANGLED = `export function tangled(a: number[], b: boolean, c: string): number {
  let total = 0;
  for (const x of a) {
    if (x > 1) {
      if (b) {
        for (const y of a) {
          if (y > x && c) total += y;
          else if (y < x || !c) total -= y;
          else total++;
        }
      } else if (c === 'z') {
        while (total < 10) total += x > 5 ? 1 : 2;
      }
    }
  }
  return total;
}
`;

const EXCUSED = `// biome-ignore lint/complexity/noExcessiveCognitiveComplexity: a probe of the gate, kept whole on purpose\n${TANGLED}`;

describe('cognitive complexity gate', () => {
  let root: string;
  let report: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'kmem-complexity-'));
    const files: Record<string, string> = {
      // the project's configuration, without its schema path (which points into the repository's node_modules)
      'biome.jsonc': readFileSync(join(REPOSITORY, 'biome.jsonc'), 'utf8').replace(/^\s*"\$schema".*\n/m, ''),
      'functions/core/tangled.ts': TANGLED,
      'lib/excused.ts': EXCUSED,
      'test/unit/tangled.test.ts': TANGLED,
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    try {
      report = execFileSync(BIOME, ['lint', '--vcs-enabled=false', '--error-on-warnings', '--colors=off', '.'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      report = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    }
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const flagged = (): string[] =>
    [...report.matchAll(/^(\S+):\d+:\d+ lint\/complexity\/noExcessiveCognitiveComplexity/gm)].map((match) => match[1] ?? '');

  it('refuses a function over the limit in the source tree, as an error', () => {
    expect(flagged()).toEqual(['functions/core/tangled.ts']);
    expect(report).toMatch(/Excessive complexity of \d+ detected \(max: 15\)/);
    expect(report).toMatch(/Found 1 error/);
  });

  it('takes one excused with a reason, and leaves tests alone', () => {
    expect(flagged()).not.toContain('lib/excused.ts');
    expect(flagged()).not.toContain('test/unit/tangled.test.ts');
  });
});
