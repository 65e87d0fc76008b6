/** Sources: what a memory's index holds chunks of, and the one way stored forms name them. */

/** What an index holds chunks of: one of the memory's files, or the messages of one of its sessions. */
export type IndexedSource = { kind: 'file'; fileId: string } | { kind: 'session'; sessionId: string };
export type SourceRef = IndexedSource | { kind: 'message'; messageId: string }; // or, to exclude, one deleted message

/**
 * A source as the stored forms name it (a chunk's `fileId`, `Memory.excludedFileIds`, the index's per-chunk
 * source): a file's id as is, a session as `session:<id>` (a deleted message's exclusion: `msg:<id>`).
 * Composed and read here only: code that needs to know which kind of source it holds asks `sourceRefOf`.
 */
export type SourceId = string;

const SESSION_SOURCE = 'session:';

export function sourceIdOf(source: SourceRef): SourceId {
  if (source.kind === 'message') return messageChunkId(source.messageId);
  return source.kind === 'session' ? `${SESSION_SOURCE}${source.sessionId}` : source.fileId;
}

/** The id of a message's chunk in a memory's index (and of a deleted message's exclusion). */
export const messageChunkId = (messageId: string): string => `msg:${messageId}`;

/**
 * Whether the memory's exclusions hide a stored chunk: its source was removed (a file, a detached or deleted
 * session) or, a message's chunk, the message itself was deleted.
 */
export function isExcludedChunk(excluded: ReadonlySet<SourceId>, chunk: { id: string; fileId: string }): boolean {
  return excluded.has(chunk.fileId) || excluded.has(chunk.id);
}

export function sourceRefOf(id: SourceId): IndexedSource {
  return id.startsWith(SESSION_SOURCE) ? { kind: 'session', sessionId: id.slice(SESSION_SOURCE.length) } : { kind: 'file', fileId: id };
}

export const fileSource = (fileId: string): SourceRef => ({ kind: 'file', fileId });
export const sessionSource = (sessionId: string): SourceRef => ({ kind: 'session', sessionId });

/** The source id under which a session's messages sit in a memory's index (beside file ids). */
export const sessionSourceId = (sessionId: string): SourceId => sourceIdOf(sessionSource(sessionId));
