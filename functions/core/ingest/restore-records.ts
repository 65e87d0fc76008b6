/**
 * The records of a restore, made from an archive's lines under new ids (core/portable/id-map.ts): files
 * (with their text as their transcript, and the pages of a sitemap or crawl), sessions and messages, each
 * linked to the restored memory before it is made, so taking a failed restore back finds everything it
 * made through the memory's links. Ids derive from the memory and the old id: a redelivered restore makes
 * the same records again, and one that exists already is kept.
 */
import { BadRequestError, ConflictError } from '../errors';
import {
  FILE_CATEGORIES,
  FILE_TYPES,
  type FileRecord,
  MESSAGE_ROLES,
  type Memory,
  type Message,
  type MetadataEntry,
  type Session,
} from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, LinkStore, ObjectStore, SessionLinkStore } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import type { FileStore } from '../files/ports';
import { emptyFile } from '../files/file-records';
import type { IdMap } from '../portable/id-map';

export interface RestoreRecordDeps {
  files: FileStore;
  links: LinkStore;
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  messages: MessageStore;
  objects: ObjectStore;
  clock: Clock;
  config: { originRegion: string };
}

/** A file line of an archive (docs/export-format.md). */
export interface PortableFile {
  id: string;
  name: string;
  extension?: string;
  fileType?: string;
  category?: string;
  contentType?: string | null;
  externalUrl?: string | null;
  sourceKey?: string | null;
  length?: number | null;
  size?: number | null;
  tokens?: number | null;
  createdAt?: string;
  metadata?: unknown;
  text: string | null;
  pages?: PortableFile[];
}

interface PortableSession {
  id: string;
  customerUserId?: string | null;
  metadata?: MetadataEntry[];
  createdAt: string;
  updatedAt?: string;
  endedAt?: string | null;
}

interface PortableMessage {
  id: string;
  sessionId: string;
  role: string;
  content: string;
  customerUserId?: string | null;
  createdAt: string;
  updatedAt?: string;
  sequence?: number;
}

/** Makes a file (and its pages) of the archive in the memory; answers the new file. */
export async function restoreFile(
  deps: RestoreRecordDeps,
  memory: Memory,
  ids: IdMap,
  line: PortableFile,
  where: string,
): Promise<FileRecord> {
  const now = deps.clock.now().toISOString();
  const id = ids.add(requireString(line.id, `${where}.id`));
  await keep(
    deps.links.create({
      id: ids.add(`link:${id}`),
      accountId: memory.accountId,
      memoryId: memory.id,
      fileId: id,
      type: 'file',
      ingestedAt: now,
      createdAt: now,
      updatedAt: now,
    }),
  );
  const pages = line.pages ?? [];
  const sourceKey = line.sourceKey && !(await deps.files.findBySource(memory.accountId, line.sourceKey)) ? line.sourceKey : null;
  const file = { ...(await fileOf(deps, memory, id, line, where)), sourceKey, hiddenFilesTotal: pages.length };
  const counts = { hiddenFilesCreated: pages.length, hiddenFilesProcessed: pages.length, hiddenFilesIngested: pages.length };
  await keep(deps.files.create({ ...file, ...counts, goldChunkKey: objectKeys.chunks(memory.accountId, memory.id, id) }));
  for (const [i, page] of pages.entries()) {
    const pageId = ids.add(requireString(page.id, `${where}.pages.${i}.id`));
    const child = await fileOf(deps, memory, pageId, page, `${where}.pages.${i}`);
    await keep(deps.files.create({ ...child, parentFileId: id, source: id }));
  }
  return file;
}

async function fileOf(deps: RestoreRecordDeps, memory: Memory, id: string, line: PortableFile, where: string): Promise<FileRecord> {
  const now = deps.clock.now().toISOString();
  const text = line.text ?? null;
  const transcript = text === null ? null : objectKeys.transcript(memory.accountId, id);
  if (transcript !== null && text !== null) await deps.objects.put(transcript, text, 'text/plain; charset=utf-8');
  return {
    ...emptyFile(memory.accountId, id, now, deps.config.originRegion),
    name: requireString(line.name, `${where}.name`),
    extension: line.extension ?? '',
    fileType: oneOf(FILE_TYPES, line.fileType, 'other'),
    category: oneOf(FILE_CATEGORIES, line.category, 'other'),
    state: text === null ? 'failed' : 'ready',
    error: text === null ? 'the archive holds no text of this file' : null,
    contentType: line.contentType ?? null,
    externalUrl: line.externalUrl ?? null,
    silverTranscriptKey: transcript,
    length: line.length ?? text?.length ?? null,
    size: line.size ?? null,
    tokens: line.tokens ?? null,
    createdAt: line.createdAt ?? now,
    ...(line.metadata === undefined ? {} : ({ metadata: line.metadata } as object)),
  };
}

/** Makes a session of the archive, attached to the memory. */
export async function restoreSession(
  deps: RestoreRecordDeps,
  memory: Memory,
  ids: IdMap,
  line: PortableSession,
  where: string,
): Promise<string> {
  const id = ids.add(requireString(line.id, `${where}.id`));
  const now = deps.clock.now().toISOString();
  await keep(deps.sessionLinks.create({ accountId: memory.accountId, memoryId: memory.id, sessionId: id, createdAt: now }));
  const session: Session = {
    id,
    accountId: memory.accountId,
    customerUserId: line.customerUserId ?? null,
    metadata: Array.isArray(line.metadata) ? line.metadata : [],
    createdAt: requireString(line.createdAt, `${where}.createdAt`),
    updatedAt: line.updatedAt ?? now,
    deletedAt: null,
    endedAt: line.endedAt ?? null,
  };
  await keep(deps.sessions.create(session));
  return id;
}

/** Makes a message of the archive in its (restored) session, taking the session's next place in its writing order. */
export async function restoreMessage(
  deps: RestoreRecordDeps,
  memory: Memory,
  ids: IdMap,
  line: PortableMessage,
  where: string,
): Promise<Message> {
  const sessionId = ids.rename(requireString(line.sessionId, `${where}.sessionId`));
  if (sessionId === line.sessionId)
    throw new BadRequestError(`archive refused: ${where} belongs to session '${line.sessionId}', which the archive does not hold`);
  const id = ids.add(requireString(line.id, `${where}.id`));
  const sequence =
    line.sequence === undefined ? undefined : (await deps.sessions.nextMessageSequence(memory.accountId, sessionId))?.sequence;
  const message: Message = {
    id,
    accountId: memory.accountId,
    sessionId,
    role: oneOf(MESSAGE_ROLES, line.role, 'norole'),
    content: requireString(line.content, `${where}.content`),
    customerUserId: line.customerUserId ?? null,
    createdAt: requireString(line.createdAt, `${where}.createdAt`),
    updatedAt: line.updatedAt ?? line.createdAt,
    ...(sequence === undefined ? {} : { sequence }),
  };
  await keep(deps.messages.create(message));
  return message;
}

/** A create that finds its record made already (by an earlier try of this restore) is done. */
async function keep(created: Promise<unknown>): Promise<void> {
  try {
    await created;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
}

function requireString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new BadRequestError(`archive refused: ${where} is missing or not a string`);
  return value;
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}
