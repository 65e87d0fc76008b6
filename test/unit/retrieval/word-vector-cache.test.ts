/** The word-vector table's binary cache: the same table as parsing, rewritten when stale or corrupt. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWordVectors } from '../../../functions/adapters/embeddings/word-vector-loader';
import { cacheFile } from '../../../functions/adapters/embeddings/word-vector-cache';
import { decodeWordVectorTable, encodeWordVectorTable } from '../../../functions/engine/retrieval/word-vector-binary';
import { parseWordVectors, type WordVectorTable } from '../../../functions/engine/retrieval/word-vector-table';
import { packageJson } from '../../support/word-vector-json';

const fillers = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`filler${index}`, [index, 1, -0.5 * index]]));
const rows = { the: [3, 4], 'say "hi"': [-1e-3, 0, 2.5e-3], café: [0, -2], 日本: [1e-7, 2, 3], ...fillers, zero: [] };
const root = mkdtempSync(join(tmpdir(), 'kmem-wv-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh JSON file and an empty cache directory for it. */
function fixture(name: string, content = rows): { path: string; cacheDir: string } {
  const path = join(root, `${name}.json`);
  writeFileSync(path, packageJson(content));
  return { path, cacheDir: join(root, `${name}-cache`) };
}

/** The table as plain data: words with their rows, and the vectors' exact bytes. */
function contents(table: WordVectorTable): { dimensions: number; rows: [string, number][]; bytes: Buffer } {
  const bytes = Buffer.from(table.vectors.buffer, table.vectors.byteOffset, table.vectors.byteLength);
  return { dimensions: table.dimensions, rows: [...table.rows], bytes: Buffer.from(bytes) };
}

describe('word-vector binary form', () => {
  const source = { size: 1234, mtimeMs: 1_700_000_000_123.5 };
  const table = parseWordVectors(packageJson(rows));

  it('round-trips a table bit for bit', () => {
    const bytes = encodeWordVectorTable(table, source);
    const decoded = bytes && decodeWordVectorTable(bytes, source);
    expect(decoded && contents(decoded)).toEqual(contents(table));
  });

  it('rejects another source, another version, and truncated bytes', () => {
    const bytes = encodeWordVectorTable(table, source) ?? new Uint8Array();
    expect(decodeWordVectorTable(bytes, { ...source, size: 1235 })).toBeUndefined();
    expect(decodeWordVectorTable(bytes, { ...source, mtimeMs: source.mtimeMs + 1 })).toBeUndefined();
    expect(decodeWordVectorTable(bytes.subarray(0, bytes.length - 1), source)).toBeUndefined();
    expect(decodeWordVectorTable(bytes.subarray(0, 20), source)).toBeUndefined();
    const otherVersion = Uint8Array.from(bytes);
    otherVersion[4] = 99;
    expect(decodeWordVectorTable(otherVersion, source)).toBeUndefined();
  });
});

describe('readWordVectors with a cache directory', () => {
  it('writes the cache on the first read and reads the same table from it after', () => {
    const { path, cacheDir } = fixture('first');
    const parsed = contents(parseWordVectors(readFileSync(path)));
    expect(contents(readWordVectors({ path, cacheDir }))).toEqual(parsed);
    const file = cacheFile(cacheDir, path);
    const written = statSync(file).mtimeMs;
    expect(contents(readWordVectors({ path, cacheDir }))).toEqual(parsed);
    expect(statSync(file).mtimeMs).toBe(written); // read, not rewritten
  });

  it('gives the same table as parsing with maxWords, from the JSON and from the cache', () => {
    const { path, cacheDir } = fixture('max-words');
    const parsed = contents(parseWordVectors(readFileSync(path), 5));
    expect(contents(readWordVectors({ path, cacheDir, maxWords: 5 }))).toEqual(parsed);
    expect(contents(readWordVectors({ path, cacheDir, maxWords: 5 }))).toEqual(parsed);
    expect(readWordVectors({ path, cacheDir }).rows.size).toBe(Object.keys(rows).length);
  });

  it('parses again and rewrites the cache when the JSON changed (size or mtime)', () => {
    const { path, cacheDir } = fixture('stale');
    readWordVectors({ path, cacheDir });
    const changed = { ...rows, extra: [0, 0, 1] };
    writeFileSync(path, packageJson(changed));
    expect([...readWordVectors({ path, cacheDir }).rows.keys()]).toContain('extra');
    const file = cacheFile(cacheDir, path);
    expect(decodeWordVectorTable(readFileSync(file), statSync(path))?.rows.has('extra')).toBe(true);

    const touched = new Date(Date.now() + 60_000);
    utimesSync(path, touched, touched);
    expect(contents(readWordVectors({ path, cacheDir }))).toEqual(contents(parseWordVectors(readFileSync(path))));
    expect(decodeWordVectorTable(readFileSync(file), statSync(path))).toBeDefined();
  });

  it('parses again and rewrites a truncated cache file', () => {
    const { path, cacheDir } = fixture('truncated');
    readWordVectors({ path, cacheDir });
    const file = cacheFile(cacheDir, path);
    const full = statSync(file).size;
    truncateSync(file, full - 10);
    expect(contents(readWordVectors({ path, cacheDir }))).toEqual(contents(parseWordVectors(readFileSync(path))));
    expect(statSync(file).size).toBe(full);
  });

  it('defaults to node_modules/.cache/kmem next to the package, and writes nothing when turned off', () => {
    const path = join(root, 'node_modules', 'wink-like', 'vectors.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, packageJson(rows));
    readWordVectors({ path, cacheDir: false });
    expect(existsSync(join(root, 'node_modules', '.cache'))).toBe(false);
    expect(existsSync(cacheFile(join(tmpdir(), 'kmem-cache'), path))).toBe(false);
    expect(contents(readWordVectors({ path }))).toEqual(contents(parseWordVectors(readFileSync(path))));
    expect(existsSync(cacheFile(join(root, 'node_modules', '.cache', 'kmem'), path))).toBe(true);
  });

  it('still loads when the cache directory cannot be written', () => {
    const { path } = fixture('unwritable');
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, 'not a directory');
    expect(contents(readWordVectors({ path, cacheDir: join(blocker, 'cache') }))).toEqual(contents(parseWordVectors(readFileSync(path))));
  });
});
