/**
 * docs/configuration.md against the config module: every variable of functions/config/sections.ts is
 * listed once, under its own section, with the schema's default ("unset" when it has none), and nothing
 * else is; the function table is FUNCTION_SETTINGS. Every KMEM_ name the README and docs/ mention is a real
 * setting (or one of the few read outside the config module). So the page cannot drift from the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FUNCTION_SETTINGS } from '../../../functions/config/function-settings';
import { ALL_SETTINGS, environmentSchema, type SettingsSection, variablesOf } from '../../../functions/config/sections';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');

/** Variables read outside functions/config/ (the stdio MCP server, the console's browser tests). */
const READ_ELSEWHERE = new Set(['KMEM_URL', 'KMEM_CHROMIUM', 'KMEM_SCREENSHOTS']);

interface Row {
  section: string;
  cells: string[];
}

/** The table rows of a page, each with the `## ` heading it sits under. */
function tableRows(page: string): Row[] {
  const rows: Row[] = [];
  let section = '';
  for (const line of page.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    else if (line.startsWith('|') && !/^\|[-| ]+\|$/.test(line)) {
      rows.push({
        section,
        cells: line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      });
    }
  }
  return rows;
}

const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');

/** The documented default of a schema: its value as the page writes it, or 'unset'. */
function schemaDefault(name: string): string {
  const schema = environmentSchema.shape[name as keyof typeof environmentSchema.shape];
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) throw new Error(`${name}: no default and not optional`);
  return parsed.data === undefined ? 'unset' : String(parsed.data);
}

/** The default a table cell states: its first backticked value, or 'unset' when the cell starts so. */
const documentedDefault = (cell: string): string => (cell.startsWith('unset') ? 'unset' : (backticked(cell)[0] ?? cell));

const settingRows = tableRows(PAGE).filter((row) => /^`[A-Z][A-Z0-9_]+`$/.test(row.cells[0] ?? ''));

describe('docs/configuration.md', () => {
  it('lists every variable the config module reads, once each, and nothing else', () => {
    const listed = settingRows.map((row) => backticked(row.cells[0] ?? '')[0]);
    expect([...listed].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('lists each variable under the section that declares it', () => {
    const documented = Object.fromEntries(settingRows.map((row) => [backticked(row.cells[0] ?? '')[0], row.section]));
    const declared = Object.fromEntries(ALL_SETTINGS.flatMap((section) => variablesOf([section]).map((name) => [name, section])));
    expect(documented).toEqual(declared);
  });

  it("gives each variable the schema's default", () => {
    const documented = Object.fromEntries(
      settingRows.map((row) => [backticked(row.cells[0] ?? '')[0], documentedDefault(row.cells[1] ?? '')]),
    );
    const declared = Object.fromEntries(Object.keys(environmentSchema.shape).map((name) => [name, schemaDefault(name)]));
    expect(documented).toEqual(declared);
  });

  it('says which sections each deployed function reads, as FUNCTION_SETTINGS does', () => {
    const functionRows = tableRows(PAGE).filter(
      (row) => row.section === 'Which function reads which sections' && row.cells[0] !== 'function',
    );
    const documented = Object.fromEntries(functionRows.map((row) => [backticked(row.cells[0] ?? '')[0], backticked(row.cells[1] ?? '')]));
    const declared: Record<string, readonly SettingsSection[]> = FUNCTION_SETTINGS;
    expect(documented).toEqual(Object.fromEntries(Object.entries(declared).map(([name, sections]) => [name, [...sections]])));
  });
});

describe('the README and docs/', () => {
  it('name only variables kmem reads', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const known = new Set([...Object.keys(environmentSchema.shape), ...READ_ELSEWHERE]);
    const unknown = pages.flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\bKMEM_[A-Z0-9_]*[A-Z0-9]\b/g)]
        .map((match) => match[0])
        .filter((name) => !known.has(name))
        .map((name) => `${page}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
