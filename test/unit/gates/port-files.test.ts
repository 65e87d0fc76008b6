/**
 * Ports live in port files (issue #22): every interface of core that an adapter implements is declared in
 * a `ports.ts` of core (core/ports.ts, core/ingest/ports.ts, core/webhooks/ports.ts, core/answers/ports.ts),
 * never inside a pipeline step or a use case. Checked on the real tree, and on a small tree of its own
 * to show it fires.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const PORT_FILE = /(?:^|\/)ports\.ts$/;

function sourcesUnder(root: string, folder: string): string[] {
  const entries = readdirSync(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

/** Names in `implements A, B<C>` clauses of the adapters' classes. */
function implementedByAdapters(root: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourcesUnder(root, 'functions/adapters')) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/\bclass\s+\w+[^{]*?\bimplements\s+([^{]+)\{/g)) {
      for (const name of (match[1] ?? '').replace(/<[^>]*>/g, '').split(',')) names.add(name.trim());
    }
  }
  return names;
}

/** `<name>: <file>` for each port an adapter implements that core declares outside a ports.ts. */
function portsOutsidePortFiles(root: string): string[] {
  const implemented = implementedByAdapters(root);
  const misplaced: string[] = [];
  for (const file of sourcesUnder(root, 'functions/core')) {
    if (PORT_FILE.test(file)) continue;
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/^export\s+(?:interface|type)\s+(\w+)/gm)) {
      const name = match[1] ?? '';
      if (implemented.has(name)) misplaced.push(`${name}: ${file}`);
    }
  }
  return misplaced.sort();
}

const BAD_TREE: Record<string, string> = {
  'functions/core/ports.ts': 'export interface Store { get(): string }',
  'functions/core/ingest/step.ts': 'export interface Extractor { run(): string }\nexport type Outcome = string;',
  'functions/adapters/store.ts':
    "import type { Store } from '../core/ports';\nexport class DbStore implements Store { get() { return ''; } }",
  'functions/adapters/extractor.ts': [
    "import type { Extractor } from '../core/ingest/step';",
    "import type { Store } from '../core/ports';",
    'export class ModelExtractor implements Extractor, Store { run() { return ""; } get() { return ""; } }',
  ].join('\n'),
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('ports live in port files', () => {
  it('holds for the real tree', () => {
    expect(implementedByAdapters(process.cwd()).size).toBeGreaterThan(20);
    expect(portsOutsidePortFiles(process.cwd())).toEqual([]);
  });

  it('catches a port an adapter implements that is declared inside a pipeline step', () => {
    const root = mkdtempSync(join(tmpdir(), 'kmem-ports-'));
    roots.push(root);
    for (const [path, text] of Object.entries(BAD_TREE)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), `${text}\n`);
    }
    expect(portsOutsidePortFiles(root)).toEqual(['Extractor: functions/core/ingest/step.ts']);
  });
});
