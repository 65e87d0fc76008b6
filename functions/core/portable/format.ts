/**
 * The export archive format (docs/export-format.md): a gzipped tar of JSON and JSON-lines members, named
 * and read here for the writer (ingest/export-memory.ts) and the readers (the restore's first look in
 * use-cases/memory-portability.ts, and ingest/restore-memory.ts). Every version ever written is read:
 * `readManifest` turns an older manifest into the current shape.
 */
import { BadRequestError } from '../errors';
import { MEMORY_TYPES, type Memory, ONTOLOGIES } from '../model';

export const EXPORT_FORMAT = 'kmem-export';
export const EXPORT_VERSION = 1;
/** The versions a restore reads: 1 (the first). A later kmem adds its version here, with an upgrade. */
const READABLE_VERSIONS: readonly number[] = [1];

/** Member names, in the order an archive holds them; `part` numbers a kind's members from 0. */
export const MEMBERS = {
  manifest: 'manifest.json',
  files: (part: number) => `files/${pad(part)}.jsonl`,
  sessions: (part: number) => `sessions/${pad(part)}.jsonl`,
  messages: (part: number) => `messages/${pad(part)}.jsonl`,
  chunks: (part: number) => `chunks/${pad(part)}.jsonl`,
  graph: 'graph/state.json',
  end: 'end.json',
} as const;

const pad = (part: number): string => String(part).padStart(5, '0');

/** The kind of a member by its path; undefined for a name the format does not know. */
export function memberKind(path: string): 'manifest' | 'files' | 'sessions' | 'messages' | 'chunks' | 'graph' | 'end' | undefined {
  if (path === MEMBERS.manifest) return 'manifest';
  if (path === MEMBERS.graph) return 'graph';
  if (path === MEMBERS.end) return 'end';
  const kind = /^(files|sessions|messages|chunks)\/\d{5}\.jsonl$/.exec(path)?.[1];
  return kind as 'files' | 'sessions' | 'messages' | 'chunks' | undefined;
}

/** The memory's settings an archive carries: what a restored memory is created with. */
export type PortableSettings = Pick<
  Memory,
  | 'name'
  | 'description'
  | 'memoryType'
  | 'ontology'
  | 'chunkSize'
  | 'chunkOverlap'
  | 'acceleration'
  | 'factExtraction'
  | 'adapterRepo'
  | 'adapterVersion'
>;

export interface Manifest {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  memory: PortableSettings;
  /** The embedder that made the archive's vectors (none: the archive holds no vectors). */
  embedder: { name: string; dimensions: number } | null;
}

/** What the last member counts: a restore that does not meet it, or never reaches it, read a truncated archive. */
export interface EndMarker {
  files: number;
  sessions: number;
  messages: number;
  chunks: number;
}

export function settingsOf(memory: Memory): PortableSettings {
  const { name, description, memoryType, ontology, chunkSize, chunkOverlap, acceleration, factExtraction, adapterRepo, adapterVersion } =
    memory;
  return { name, description, memoryType, ontology, chunkSize, chunkOverlap, acceleration, factExtraction, adapterRepo, adapterVersion };
}

/** Members of JSON lines: one record a line. */
export function encodeLines(records: readonly unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n');
}

export function decodeLines<T>(path: string, data: Uint8Array): T[] {
  return Buffer.from(data)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => parseJson<T>(`${path} line ${i + 1}`, line));
}

export function decodeJson<T>(path: string, data: Uint8Array): T {
  return parseJson<T>(path, Buffer.from(data).toString('utf8'));
}

function parseJson<T>(where: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BadRequestError(`archive refused: ${where} is not JSON (a damaged archive?)`);
  }
}

/**
 * The manifest, checked and in the current shape: a foreign archive (no kmem manifest first, another
 * format, a version this kmem does not read) is refused naming what it lacks.
 */
export function readManifest(path: string | undefined, data: Uint8Array | undefined): Manifest {
  if (path !== MEMBERS.manifest || !data) {
    throw new BadRequestError(`archive refused: not a kmem export (its first member is '${path ?? 'none'}', not ${MEMBERS.manifest})`);
  }
  const raw = decodeJson<Record<string, unknown>>(path, data);
  if (raw?.format !== EXPORT_FORMAT) throw new BadRequestError(`archive refused: manifest.json format is not '${EXPORT_FORMAT}'`);
  const version = raw.version;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    throw new BadRequestError(
      `archive refused: format version ${String(version)} is not one this kmem reads (${READABLE_VERSIONS.join(', ')})`,
    );
  }
  return { ...(raw as unknown as Manifest), memory: checkedSettings(raw.memory) };
}

function checkedSettings(value: unknown): PortableSettings {
  const memory = (value ?? {}) as Partial<PortableSettings>;
  const problem = (field: string) => new BadRequestError(`archive refused: manifest.json memory.${field} is missing or invalid`);
  if (typeof memory.name !== 'string' || !memory.name) throw problem('name');
  if (!MEMORY_TYPES.includes(memory.memoryType as Memory['memoryType'])) throw problem('memoryType');
  if (memory.ontology != null && !ONTOLOGIES.includes(memory.ontology)) throw problem('ontology');
  return {
    name: memory.name.slice(0, 200),
    description: typeof memory.description === 'string' ? memory.description : '',
    memoryType: memory.memoryType as Memory['memoryType'],
    ontology: memory.ontology ?? null,
    chunkSize: typeof memory.chunkSize === 'number' ? memory.chunkSize : null,
    chunkOverlap: typeof memory.chunkOverlap === 'number' ? memory.chunkOverlap : null,
    acceleration: memory.acceleration === true,
    factExtraction: memory.factExtraction === true,
    adapterRepo: typeof memory.adapterRepo === 'string' ? memory.adapterRepo : '',
    adapterVersion: typeof memory.adapterVersion === 'number' ? memory.adapterVersion : 0,
  };
}
