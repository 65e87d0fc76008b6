/**
 * The file size budget (scripts/check-file-sizes.ts, run by `npm run lint`): the tree holds it, and it
 * fails on a new file over the norm, a listed file grown past its ceiling, and a stale list entry.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lineCount, OVERSIZED, SIZE_NORM, sizeProblems, sourceFiles } from '../../../scripts/check-file-sizes';

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const lines = (count: number): string => 'export const x = 1;\n'.repeat(count);

describe('file size budget', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  const tree = (files: Record<string, string>): string => {
    root = mkdtempSync(join(tmpdir(), 'kmem-sizes-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it('holds on the tree: no source file over the norm but those listed, none past its ceiling', () => {
    expect(sizeProblems(REPOSITORY)).toEqual([]);
    expect(sourceFiles(REPOSITORY).length).toBeGreaterThan(300);
    for (const [path, ceiling] of Object.entries(OVERSIZED)) {
      expect(ceiling.lines, path).toBeGreaterThan(SIZE_NORM);
      expect(ceiling.reason.length, path).toBeGreaterThan(20);
    }
  });

  it('fails on a new file over the norm, and takes one at it', () => {
    const at = tree({ 'functions/core/fine.ts': lines(SIZE_NORM), 'functions/core/big.ts': lines(SIZE_NORM + 1) });
    expect(sizeProblems(at, {})).toEqual([
      `functions/core/big.ts: ${SIZE_NORM + 1} lines, over the ${SIZE_NORM}-line norm (split it by concern)`,
    ]);
  });

  it('fails on a listed file grown past its ceiling, and on a list entry no longer needed', () => {
    const at = tree({ 'lib/grown.ts': lines(351), 'lib/shrunk.ts': lines(120), 'console/src/kept.css': lines(340) });
    const oversized = {
      'lib/grown.ts': { lines: 350, reason: 'r' },
      'lib/shrunk.ts': { lines: 400, reason: 'r' },
      'console/src/kept.css': { lines: 345, reason: 'r' },
      'bin/gone.ts': { lines: 400, reason: 'r' },
    };
    expect(sizeProblems(at, oversized)).toEqual([
      'lib/grown.ts: 351 lines, over its ceiling of 350 (it may shrink, never grow)',
      'lib/shrunk.ts: 120 lines, within the norm now: remove it from OVERSIZED in scripts/check-file-sizes.ts',
      'bin/gone.ts: listed in OVERSIZED but not found: remove it from the list',
    ]);
  });

  it('counts only hand-written source: generated client types and other files are not budgeted', () => {
    const at = tree({
      'packages/client/src/generated/api.ts': lines(5000),
      'functions/data.json': lines(5000),
      'functions/notes.md': lines(5000),
    });
    expect(sizeProblems(at, {})).toEqual([]);
  });

  it('counts lines as wc -l does, plus a last line without its newline', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\n')]).toEqual([0, 1, 1, 2, 2]);
  });
});
