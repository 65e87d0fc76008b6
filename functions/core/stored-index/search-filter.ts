/**
 * The `filter` of `GET /memory/` and `GET /messages/search`: conditions that all hold for every passage,
 * fact, source or message returned. Conditions on the chunk itself (its file, session, speaker, role) are
 * read from the chunk record; conditions on its source (file type, sourceKey, metadata) are resolved at
 * query time against the source records (the files, or the sessions) into the set of allowed sources (kept
 * per index and account source version: allowed-source-cache.ts), so a change of a file's metadata counts
 * at the next query, with nothing extracted or embedded again.
 */
import {
  type FileRecord,
  type FileType,
  type MessageRole,
  type MetadataEntry,
  type Session,
  type SourceId,
  sessionSourceId,
  sourceRefOf,
} from '../model';
import type { ChunkRecord } from './chunks';

export interface SearchFilter {
  /** A file's chunks (a sitemap's or crawl's: its own id, or the id of one of its pages). */
  fileIds?: readonly string[];
  fileTypes?: readonly FileType[];
  sessionIds?: readonly string[];
  customerUserIds?: readonly string[];
  roles?: readonly MessageRole[];
  sourceKeyPrefix?: string;
  /** Each key's value is one of the given values (the file's metadata, or the session's for messages). */
  metadata?: Readonly<Record<string, readonly string[]>>;
}

/** What the source conditions leave: the source ids allowed, or undefined when the filter has none. */
export type AllowedSources = ReadonlySet<SourceId> | undefined;

/** Whether the filter holds a condition on sources (resolved against file and session records). */
export function hasSourceConditions(filter: SearchFilter): boolean {
  return filter.fileTypes !== undefined || filter.sourceKeyPrefix !== undefined || filter.metadata !== undefined;
}

/**
 * The filter as a canonical string (conditions in a fixed order, each list sorted): two filters that
 * allow the same have the same key. With `sourceOnly`, the source conditions alone.
 */
export function filterKey(filter: SearchFilter, sourceOnly = false): string {
  const sorted = (values: readonly string[] | undefined) => (values ? [...values].sort() : null);
  const metadata = filter.metadata
    ? Object.keys(filter.metadata)
        .sort()
        .map((key) => [key, sorted(filter.metadata?.[key])])
    : null;
  const sources = [sorted(filter.fileTypes), filter.sourceKeyPrefix ?? null, metadata];
  if (sourceOnly) return JSON.stringify(sources);
  const chunks = [sorted(filter.fileIds), sorted(filter.sessionIds), sorted(filter.customerUserIds), sorted(filter.roles)];
  return JSON.stringify([...sources, ...chunks]);
}

/** Whether the filter holds any condition at all. */
export function isFilterEmpty(filter: SearchFilter | undefined): boolean {
  return !filter || Object.values(filter).every((condition) => condition === undefined);
}

/** Every metadata condition holds: the entries hold the key with one of its values. */
function metadataMatches(entries: readonly MetadataEntry[], wanted: SearchFilter['metadata']): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([key, values]) => entries.some((entry) => entry.key === key && values.includes(entry.value)));
}

/** The file conditions of the filter hold for this file record. */
function fileMatches(file: Pick<FileRecord, 'fileType' | 'sourceKey' | 'metadata'>, filter: SearchFilter): boolean {
  if (filter.fileTypes && !filter.fileTypes.includes(file.fileType)) return false;
  if (filter.sourceKeyPrefix !== undefined && !(file.sourceKey ?? '').startsWith(filter.sourceKeyPrefix)) return false;
  return metadataMatches(file.metadata, filter.metadata);
}

/** The source conditions hold for a session: no file condition (a session is no file), its metadata matching. */
function sessionMatches(session: Pick<Session, 'metadata'>, filter: SearchFilter): boolean {
  if (filter.fileTypes !== undefined || filter.sourceKeyPrefix !== undefined) return false;
  return metadataMatches(session.metadata, filter.metadata);
}

/** How the source records are read: this account's files by id, and its sessions. */
export interface SourceLookup {
  files(ids: readonly string[]): Promise<ReadonlyMap<string, Pick<FileRecord, 'fileType' | 'sourceKey' | 'metadata'>>>;
  sessions(ids: readonly string[]): Promise<ReadonlyMap<string, Pick<Session, 'metadata'>>>;
}

/** The sources among `sourceIds` (an index's) that the source conditions allow; undefined when there are none. */
export async function resolveSources(filter: SearchFilter, sourceIds: Iterable<SourceId>, lookup: SourceLookup): Promise<AllowedSources> {
  if (!hasSourceConditions(filter)) return undefined;
  const fileIds: string[] = [];
  const sessionIds: string[] = [];
  for (const id of sourceIds) {
    const source = sourceRefOf(id);
    if (source.kind === 'file') fileIds.push(source.fileId);
    else sessionIds.push(source.sessionId);
  }
  const fileConditions = filter.fileTypes !== undefined || filter.sourceKeyPrefix !== undefined;
  const [files, sessions] = await Promise.all([lookup.files(fileIds), fileConditions ? new Map() : lookup.sessions(sessionIds)]);
  const allowed = new Set<SourceId>();
  for (const [id, file] of files) if (fileMatches(file, filter)) allowed.add(id);
  for (const [id, session] of sessions) if (sessionMatches(session, filter)) allowed.add(sessionSourceId(id));
  return allowed;
}

/**
 * The filter as a predicate over chunk records: its chunk conditions hold and the chunk's source is among
 * `sources` (when the filter has source conditions). The lists become sets once, not per chunk.
 */
export function chunkPredicate(filter: SearchFilter, sources: AllowedSources): (chunk: ChunkRecord) => boolean {
  const fileIds = setOf(filter.fileIds);
  const sessionIds = setOf(filter.sessionIds);
  const customers = setOf(filter.customerUserIds);
  const roles = setOf<string>(filter.roles);
  const fromFile = (chunk: ChunkRecord, ids: ReadonlySet<string>): boolean =>
    !chunk.message && (ids.has(chunk.fileId) || (chunk.pageId !== undefined && ids.has(chunk.pageId)));
  /** A message condition: absent, or the chunk is a message whose field is among the values. */
  const said = (values: ReadonlySet<string> | undefined, value: string | null | undefined): boolean =>
    !values || (value !== undefined && value !== null && values.has(value));
  return (chunk) => {
    if (sources && !sources.has(chunk.fileId)) return false;
    if (fileIds && !fromFile(chunk, fileIds)) return false;
    const message = chunk.message;
    return said(sessionIds, message?.sessionId) && said(customers, message?.customerUserId) && said(roles, message?.role);
  };
}

const setOf = <T>(values: readonly T[] | undefined): ReadonlySet<T> | undefined => (values ? new Set(values) : undefined);
