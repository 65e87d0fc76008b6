/**
 * A memory's chunk records and how chunk lists are stored (one JSON object per file under the memory's
 * gold prefix, and all of them beside each index version). How a file's text is cut into them:
 * ingest/file-chunks.ts.
 */
import type { SourceId } from '../model';

export interface ChunkMessage {
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
export interface StoredMessage {
  id: string;
  sessionID: string;
  role: string;
  customerUserID: string | null;
  createdAt: string;
}

type ChunkAs<M> = Omit<StoredChunk, 'message'> & { message?: M };

/**
 * A chunk record as a loaded segment holds it: its text is filled in from the segment's retrieval index
 * the first time someone asks for the chunk (live-chunks.ts), not for every chunk at load.
 */
export type ChunkRecord = Omit<StoredChunk, 'text'> & { text?: string };

/** A chunk's message as chunk lists store it. */
export function storedMessage(message: ChunkMessage): StoredMessage {
  const { id, sessionId, role, customerUserId, createdAt } = message;
  return { id, sessionID: sessionId, role, customerUserID: customerUserId, createdAt };
}

/** A stored message as a chunk's. */
export function messageOf(stored: StoredMessage): ChunkMessage {
  const { id, sessionID, role, customerUserID, createdAt } = stored;
  return { id, sessionId: sessionID, role, customerUserId: customerUserID, createdAt };
}

/**
 * The chunk list as stored. `texts: false` leaves the texts out: a segment's `chunks.json` does, since its
 * `retrieval.idx` holds them (readSegment puts them back), so a cold container parses each text once.
 */
export function encodeChunks(chunks: readonly StoredChunk[], options: { texts?: boolean } = {}): string {
  const withTexts = options.texts !== false;
  const stored = chunks.map((chunk): Partial<ChunkAs<StoredMessage>> => {
    const record: Partial<StoredChunk> = withTexts ? chunk : withoutText(chunk);
    // most chunks carry no message: they pass as they are (no copy, when with their text)
    if (record.message === undefined) return record as Partial<ChunkAs<undefined>>;
    return { ...record, message: storedMessage(record.message) };
  });
  return JSON.stringify(stored);
}

function withoutText(chunk: StoredChunk): Omit<StoredChunk, 'text'> {
  const { text: _text, ...rest } = chunk;
  return rest;
}

/** The chunk list as stored; a segment's records come without texts (see `encodeChunks`) until readSegment puts them back. */
export function decodeChunks(bytes: Uint8Array | undefined): StoredChunk[] {
  if (!bytes) return [];
  const stored = JSON.parse(Buffer.from(bytes).toString('utf8')) as Array<ChunkAs<StoredMessage>>;
  return stored.map((chunk): StoredChunk => {
    if (chunk.message === undefined) return chunk as ChunkAs<undefined>;
    return { ...chunk, message: messageOf(chunk.message) };
  });
}
