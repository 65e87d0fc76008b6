/**
 * A memory's chunk records and how chunk lists are stored (one JSON object per file under the memory's
 * gold prefix, and all of them beside each index version). How a file's text is cut into them:
 * ingest/file-chunks.ts.
 */
import type { SourceId } from '../model';

interface ChunkMessage {
  id: string;
  sessionId: string;
  role: string;
  customerUserId: string | null;
  createdAt: string;
}

export interface StoredChunk {
  id: string;
  /** The source: a file's id, or a session's for a conversation's messages (see SourceId; stored under this name). */
  fileId: SourceId;
  text: string;
  /** Offsets of the chunk in the file's extracted text (0 and the length for a message). */
  start: number;
  end: number;
  /** The file's name or the page's title, indexed with the text. */
  title?: string;
  /** For a page of a sitemap or crawl: the hidden file it came from. */
  pageId?: string;
  /** For a message: who said it, where and when (stored as `sessionID` and `customerUserID`: see encodeChunks). */
  message?: ChunkMessage;
  /** For a message: indexed with it, never returned (its day and the turns before it; ingest/conversation-chunks.ts). */
  context?: string;
}

/** A chunk's message as chunk lists store it: the attribute names the index artefacts were first written with. */
interface StoredMessage {
  id: string;
  sessionID: string;
  role: string;
  customerUserID: string | null;
  createdAt: string;
}

type ChunkAs<M> = Omit<StoredChunk, 'message'> & { message?: M };

export function encodeChunks(chunks: readonly StoredChunk[]): string {
  const stored = chunks.map((chunk): ChunkAs<StoredMessage> => {
    // most chunks carry no message: they pass as they are (no copy)
    if (chunk.message === undefined) return chunk as ChunkAs<undefined>;
    const { id, sessionId, role, customerUserId, createdAt } = chunk.message;
    return { ...chunk, message: { id, sessionID: sessionId, role, customerUserID: customerUserId, createdAt } };
  });
  return JSON.stringify(stored);
}

export function decodeChunks(bytes: Uint8Array | undefined): StoredChunk[] {
  if (!bytes) return [];
  const stored = JSON.parse(Buffer.from(bytes).toString('utf8')) as Array<ChunkAs<StoredMessage>>;
  return stored.map((chunk): StoredChunk => {
    if (chunk.message === undefined) return chunk as ChunkAs<undefined>;
    const { id, sessionID, role, customerUserID, createdAt } = chunk.message;
    return { ...chunk, message: { id, sessionId: sessionID, role, customerUserId: customerUserID, createdAt } };
  });
}
