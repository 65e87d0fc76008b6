/**
 * The word-vector table's binary cache on disk (format in engine/retrieval/word-vector-binary.ts): one file per
 * source JSON path, named by a hash of that path, in `node_modules/.cache/kmem/` next to the installed package
 * when writable, else in the OS temp directory (a Lambda's package directory is read-only). Files are written to
 * a temporary name and renamed, so a reader never sees half a file. Failing to read or write is never an error:
 * the caller parses the JSON instead.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { decodeWordVectorTable, encodeWordVectorTable, type WordVectorSource, type WordVectorTable } from '../../engine';

/** The source JSON's identity, and its bytes read on demand. */
export interface SourceFile extends WordVectorSource {
  bytes(): Buffer;
}

export function readSource(path: string): SourceFile {
  const stat = statSync(path);
  return { size: stat.size, mtimeMs: stat.mtimeMs, bytes: () => readFileSync(path) };
}

/** The cached table when a valid cache file exists for this source; undefined otherwise. */
export function readCachedTable(
  path: string,
  source: WordVectorSource,
  cacheDir: string | undefined,
  maxWords: number | undefined,
): WordVectorTable | undefined {
  for (const dir of cacheDir === undefined ? defaultCacheDirs(path) : [cacheDir]) {
    const bytes = readIfPresent(cacheFile(dir, path));
    const table = bytes && decodeWordVectorTable(bytes, source, maxWords);
    if (table) return table;
  }
  return undefined;
}

/** Writes the table's binary form to the first directory that takes it; returns the file written, if any. */
export function writeCachedTable(
  path: string,
  source: WordVectorSource,
  table: WordVectorTable,
  cacheDir: string | undefined,
): string | undefined {
  const bytes = encodeWordVectorTable(table, source);
  if (!bytes) return undefined;
  for (const dir of cacheDir === undefined ? defaultCacheDirs(path) : [cacheDir]) {
    const file = cacheFile(dir, path);
    if (writeAtomically(file, bytes)) return file;
  }
  return undefined;
}

/** The cache file for a source JSON path inside `dir`. */
export function cacheFile(dir: string, path: string): string {
  const digest = createHash('sha256').update(path).digest('hex').slice(0, 16);
  return join(dir, `word-vectors-${digest}.bin`);
}

/** `node_modules/.cache/kmem/` of the node_modules holding the package (when there is one), then the temp dir. */
function defaultCacheDirs(path: string): string[] {
  const marker = `${sep}node_modules${sep}`;
  const at = path.lastIndexOf(marker);
  const temp = join(tmpdir(), 'kmem-cache');
  return at < 0 ? [temp] : [join(path.slice(0, at + marker.length), '.cache', 'kmem'), temp];
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, bytes: Uint8Array): boolean {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
    return true;
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // nothing was written
    }
    return false;
  }
}
