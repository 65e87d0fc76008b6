/**
 * The `memory.restore` work: fills the memory POST /memories/restore created from an export archive, read
 * as it streams in. Files, sessions and messages are made under new ids; the index is published from the
 * archive's chunks, its vectors (kept when the archive's embedder is this deployment's, else embedded
 * again) and its graph state: nothing is extracted again and no graph model is called, so a restore
 * charges no tokens. An archive with no chunks (the oldest shape: texts only) is chunked and indexed
 * offline. A damaged, truncated, foreign or hostile archive fails the restore, and everything it made is
 * taken back: the memory stays, `failed`, empty, with the reason in `lastError`.
 */
import type { GraphSnapshot } from '../../engine';
import { BadRequestError } from '../errors';
import { type Memory, type Message, sourceRefOf } from '../model';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { objectKeys } from '../object-keys';
import type { ConversationSyncStore, QueuePort } from '../ports';
import type { PortableArchives, PortableMember } from '../portable/ports';
import { decodeJson, decodeLines, type EndMarker, type Manifest, MEMBERS, memberKind, readManifest } from '../portable/format';
import { IdMap } from '../portable/id-map';
import { decodeVector } from '../portable/memory-contents';
import { encodeChunks, type StoredChunk } from '../stored-index/chunks';
import type { WorkMessage } from '../work';
import { emitMetric } from '../metrics';
import { chunkFile } from './file-chunks';
import { conversationChunks } from './conversation-chunks';
import { buildAndPublishIndex, type IndexDeps } from './memory-index';
import { titleOf } from './ingest-memory';
import { type PortableFile, restoreFile, restoreMessage, type RestoreRecordDeps, restoreSession } from './restore-records';
import { takeBackRestore } from './restore-undo';

export interface RestoreDeps extends Omit<IndexDeps, 'config'>, Omit<RestoreRecordDeps, 'config'> {
  config: IndexDeps['config'] & RestoreRecordDeps['config'];
  archives: PortableArchives;
  conversationSync: ConversationSyncStore;
  queue: QueuePort;
}

type RestoreMessage = Extract<WorkMessage, { kind: 'memory.restore' }>;
type ArchiveChunk = StoredChunk & { vector?: string };

/** What the archive held, under the new ids. */
interface Restored {
  manifest: Manifest;
  chunks: StoredChunk[];
  vectors: Map<string, Float32Array>;
  graph: GraphSnapshot | undefined;
  /** For an archive without chunks: the texts to chunk. */
  texts: Array<{ fileId: string; name: string; text: string; pageId?: string }>;
  messages: Message[];
  end: EndMarker | undefined;
  counted: EndMarker;
}

export async function restoreMemory(deps: RestoreDeps, message: RestoreMessage): Promise<void> {
  const memory = await deps.memories.get(message.accountId, message.memoryId);
  if (!memory || memory.step !== 'ingesting' || memory.indexVersion > 0) return; // done, failed or deleted
  const started = Date.now();
  try {
    const restored = await readArchive(deps, memory, message.archiveKey);
    await publish(deps, memory, restored);
    const sessions = new Set(restored.messages.map((m) => m.sessionId));
    for (const sessionId of sessions) await deps.queue.send({ kind: 'messages.sync', accountId: memory.accountId, sessionId });
    const properties = { accountId: memory.accountId, memoryId: memory.id, seconds: (Date.now() - started) / 1000, ...restored.counted };
    emitMetric('TokensCharged', 0, { dimension: 'restore', properties }); // a restore extracts nothing and calls no graph model
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error; // retried; the last try takes it back (giveUpRestore)
    await takeBackRestore(deps, memory, error.message);
  }
}

/** The restore's end when its work is given up: what it made is taken back. */
export async function giveUpRestore(deps: RestoreDeps, message: RestoreMessage, reason: string): Promise<void> {
  const memory = await deps.memories.get(message.accountId, message.memoryId);
  if (memory?.step === 'ingesting') await takeBackRestore(deps, memory, reason);
}

async function readArchive(deps: RestoreDeps, memory: Memory, archiveKey: string): Promise<Restored> {
  const ids = new IdMap(memory.id);
  let restored: Restored | undefined;
  for await (const member of deps.archives.open(archiveKey)) {
    if (!restored) {
      restored = start(readManifest(member.path, member.data), memory);
      continue;
    }
    if (restored.end) throw new BadRequestError(`archive refused: member '${member.path}' follows ${MEMBERS.end}`);
    await readMember(deps, memory, ids, restored, member);
  }
  if (!restored) throw new BadRequestError('archive refused: the archive is empty');
  checkComplete(restored);
  return restored;
}

function start(manifest: Manifest, memory: Memory): Restored {
  if (manifest.memory.memoryType !== memory.memoryType)
    throw new BadRequestError('archive refused: its memoryType changed since the restore began');
  const counted = { files: 0, sessions: 0, messages: 0, chunks: 0 };
  return { manifest, chunks: [], vectors: new Map(), graph: undefined, texts: [], messages: [], end: undefined, counted };
}

async function readMember(deps: RestoreDeps, memory: Memory, ids: IdMap, restored: Restored, member: PortableMember): Promise<void> {
  const { path, data } = member;
  switch (memberKind(path)) {
    case 'files':
      return readFiles(deps, memory, ids, restored, member);
    case 'sessions':
      for (const [i, line] of decodeLines<Parameters<typeof restoreSession>[3]>(path, data).entries()) {
        await restoreSession(deps, memory, ids, line, `${path} line ${i + 1}`);
        restored.counted.sessions += 1;
      }
      return;
    case 'messages':
      for (const [i, line] of decodeLines<Parameters<typeof restoreMessage>[3]>(path, data).entries()) {
        restored.messages.push(await restoreMessage(deps, memory, ids, line, `${path} line ${i + 1}`));
        restored.counted.messages += 1;
      }
      return;
    case 'chunks':
      return readChunks(deps, ids, restored, decodeLines<ArchiveChunk>(path, data));
    case 'graph':
      restored.graph = ids.renameAll(decodeJson<GraphSnapshot>(path, data));
      return;
    case 'end':
      restored.end = decodeJson<EndMarker>(path, data);
      return;
    default:
      throw new BadRequestError(`archive refused: member '${path}' is not part of the kmem export format`);
  }
}

/** Files (and their pages) under new ids, their texts kept for an archive that carries no chunks. */
async function readFiles(deps: RestoreDeps, memory: Memory, ids: IdMap, restored: Restored, { path, data }: PortableMember): Promise<void> {
  const lines = decodeLines<PortableFile>(path, data);
  const files = await mapConcurrently(lines, STORE_CONCURRENCY, (line, i) => restoreFile(deps, memory, ids, line, `${path} line ${i + 1}`));
  lines.forEach((line, i) => {
    const fileId = files[i]?.id ?? '';
    restored.counted.files += 1;
    if (line.text) restored.texts.push({ fileId, name: line.name, text: line.text });
    for (const page of line.pages ?? []) {
      if (page.text) restored.texts.push({ fileId, name: page.name, text: page.text, pageId: ids.rename(page.id) });
    }
  });
}

/** Chunks under the new ids; their vectors kept when this deployment embeds with the archive's embedder. */
function readChunks(deps: RestoreDeps, ids: IdMap, restored: Restored, lines: ArchiveChunk[]): void {
  const embedder = deps.indexing.embedder();
  const same =
    embedder && restored.manifest.embedder?.name === embedder.name && restored.manifest.embedder.dimensions === embedder.dimensions;
  for (const { vector, ...chunk } of lines) {
    const renamed = ids.renameAll(chunk);
    restored.chunks.push(renamed);
    if (same && typeof vector === 'string') restored.vectors.set(renamed.id, decodeVector(vector));
    restored.counted.chunks += 1;
  }
}

/** The end marker must be there and agree with what was read: anything else is a truncated or altered archive. */
function checkComplete(restored: Restored): void {
  const { end, counted } = restored;
  if (!end) throw new BadRequestError(`archive refused: it ends before ${MEMBERS.end} (a truncated archive?)`);
  for (const kind of ['files', 'sessions', 'messages', 'chunks'] as const) {
    if (end[kind] !== counted[kind]) {
      throw new BadRequestError(`archive refused: ${MEMBERS.end} counts ${end[kind]} ${kind}, the archive holds ${counted[kind]}`);
    }
  }
}

async function publish(deps: RestoreDeps, memory: Memory, restored: Restored): Promise<void> {
  const fromArchive = restored.counted.chunks > 0;
  const chunks = fromArchive ? restored.chunks : chunksOfTexts(memory, restored);
  const added = new Map<string, StoredChunk[]>();
  for (const chunk of chunks) {
    const held = added.get(chunk.fileId);
    if (held) held.push(chunk);
    else added.set(chunk.fileId, [chunk]);
  }
  const now = deps.clock.now().toISOString();
  const graph = memory.memoryType === 'graph' ? restored.graph : undefined;
  await buildAndPublishIndex(deps, memory.accountId, memory.id, {
    added,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, step: 'ready', lastError: null, updatedAt: now }),
    ...(fromArchive ? { restored: { graph, vectors: restored.vectors } } : {}),
  });
  const files = [...added].filter(([source]) => sourceRefOf(source).kind === 'file');
  await mapConcurrently(files, STORE_CONCURRENCY, ([fileId, fileChunks]) =>
    deps.objects.put(objectKeys.chunks(memory.accountId, memory.id, fileId), encodeChunks(fileChunks), 'application/json'),
  );
}

/** The oldest archives carry texts only: chunked here as an ingestion would (offline: no model is called). */
function chunksOfTexts(memory: Memory, restored: Restored): StoredChunk[] {
  const files = restored.texts.flatMap(({ fileId, name, text, pageId }) =>
    pageId ? chunkFile(memory, fileId, text, name, pageId) : chunkFile(memory, fileId, text, titleOf(name)),
  );
  const bySession = new Map<string, Message[]>();
  for (const message of restored.messages) {
    const held = bySession.get(message.sessionId);
    if (held) held.push(message);
    else bySession.set(message.sessionId, [message]);
  }
  return [...files, ...[...bySession.values()].flatMap((session) => conversationChunks(session))];
}
