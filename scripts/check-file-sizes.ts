/**
 * The file size budget (`npm run lint`, hence `npm test`): a source file under functions/, lib/, bin/,
 * console/src/ or packages/client/src/ holds at most SIZE_NORM lines (the house norm: a module of one
 * concern). The files over it when the budget came in are listed in OVERSIZED with their size then as a
 * ceiling and the reason they are long: none may grow, and a new file must fit the norm. A listed file
 * that shrinks to the norm, or is gone, must leave the list, so the list only gets shorter.
 *
 * Usage: `tsx scripts/check-file-sizes.ts` (exit 1 and one line per problem when the budget is broken).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SIZE_NORM = 300;

/** Where source lives, and what in it is not written by hand. */
export const SOURCE_ROOTS = ['functions', 'lib', 'bin', 'console/src', 'packages/client/src'];
const GENERATED = ['packages/client/src/generated'];
const SOURCE_FILE = /\.(?:ts|tsx|mts|mjs|js|cjs|css)$/;

export interface Ceiling {
  /** Lines when the budget came in: the file may shrink, never grow. */
  readonly lines: number;
  readonly reason: string;
}

/** The files over the norm, by path from the repository root (2026-11-27, issue #22). */
export const OVERSIZED: Readonly<Record<string, Ceiling>> = {
  'functions/adapters/dynamodb/table.ts': {
    lines: 372,
    reason: 'the one door to DynamoDB: conditional writes, batches with their retries, transactions and sealed pagination in one place',
  },
  'functions/adapters/queue/local-queue.ts': {
    lines: 321,
    reason: "the local SQS stand-in: SQS's semantics (visibility, receipts, dead letters) and its crash-safe disk layout together",
  },
  'console/src/style.css': {
    lines: 338,
    reason: "the console's one stylesheet (no CSS modules or framework): layout, components and the dark theme",
  },
};

/** Lines of a text as `wc -l` counts them, plus a last line without its newline. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** The hand-written source files under `root`'s source roots, as paths from `root` with `/` separators. */
export function sourceFiles(root: string, roots: readonly string[] = SOURCE_ROOTS): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return; // a source root this checkout does not have
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.name === 'node_modules' || GENERATED.includes(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && SOURCE_FILE.test(entry.name)) found.push(path);
    }
  };
  for (const dir of roots) walk(dir);
  return found.sort();
}

/** What breaks the budget under `root`: one sentence per file (empty when the budget holds). */
export function sizeProblems(
  root: string,
  oversized: Readonly<Record<string, Ceiling>> = OVERSIZED,
  roots: readonly string[] = SOURCE_ROOTS,
): string[] {
  const problems: string[] = [];
  const files = sourceFiles(root, roots);
  for (const path of files) {
    const lines = lineCount(readFileSync(join(root, ...path.split('/')), 'utf8'));
    const ceiling = oversized[path];
    if (ceiling === undefined) {
      if (lines > SIZE_NORM) problems.push(`${path}: ${lines} lines, over the ${SIZE_NORM}-line norm (split it by concern)`);
    } else if (lines > ceiling.lines) {
      problems.push(`${path}: ${lines} lines, over its ceiling of ${ceiling.lines} (it may shrink, never grow)`);
    } else if (lines <= SIZE_NORM) {
      problems.push(`${path}: ${lines} lines, within the norm now: remove it from OVERSIZED in scripts/check-file-sizes.ts`);
    }
  }
  for (const path of Object.keys(oversized)) {
    if (!files.includes(path)) problems.push(`${path}: listed in OVERSIZED but not found: remove it from the list`);
  }
  return problems;
}

const invoked = process.argv[1] !== undefined && relative(process.argv[1], fileURLToPath(import.meta.url)) === '';
if (invoked) {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const problems = sizeProblems(root);
  if (problems.length) {
    console.error(`file size budget (scripts/check-file-sizes.ts):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
}
