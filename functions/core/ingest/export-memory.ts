/**
 * The `memory.export` work: writes a memory into one archive (core/portable/format.ts, documented in
 * docs/export-format.md), member by member as it reads them, so memory use stays at about one member
 * whatever the memory's size: the manifest, the files with their extracted text, the sessions and their
 * messages, the chunks with their vectors, the graph's state, and an end marker with the counts.
 */
import type { FileRecord, Memory, Message } from '../model';
import type { MemoryStore, ObjectStore, SessionLinkStore, LinkStore, Clock } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import type { FileStore } from '../files/ports';
import type { ArchiveWriter, ExportStore, MemoryExport, PortableArchives } from '../portable/ports';
import { EXPORT_FORMAT, EXPORT_VERSION, type EndMarker, encodeLines, type Manifest, MEMBERS, settingsOf } from '../portable/format';
import { encodeVector, publishedGraph, publishedIndex } from '../portable/memory-contents';
import type { WorkMessage } from '../work';

export interface ExportDeps {
  exports: ExportStore;
  memories: MemoryStore;
  links: LinkStore;
  files: FileStore;
  sessionLinks: SessionLinkStore;
  sessions: SessionStore;
  messages: MessageStore;
  objects: ObjectStore;
  archives: PortableArchives;
  clock: Clock;
}

type ExportMessage = Extract<WorkMessage, { kind: 'memory.export' }>;

/** A member of JSON lines is written once it holds this many records or bytes. */
const LINES_PER_MEMBER = 1_000;
const BYTES_PER_MEMBER = 8 * 1024 * 1024;

export async function exportMemory(deps: ExportDeps, message: ExportMessage): Promise<void> {
  const job = await deps.exports.get(message.accountId, message.exportId);
  if (!job || job.state !== 'running') return; // done already (a redelivery)
  const memory = await deps.memories.get(job.accountId, job.memoryId);
  if (!memory) return fail(deps, job, 'the memory was deleted');
  const writer = deps.archives.create(job.archiveKey);
  try {
    await writeArchive(deps, memory, writer);
    const size = await writer.close();
    await deps.exports.update(job.accountId, job.id, { state: 'completed', size, updatedAt: deps.clock.now().toISOString() });
  } catch (error) {
    await writer.abort();
    throw error; // retried; the last try marks the export failed (giveUpExport)
  }
}

/** The export's end when its work is given up. */
export async function giveUpExport(deps: Pick<ExportDeps, 'exports' | 'clock'>, message: ExportMessage, reason: string): Promise<void> {
  const job = await deps.exports.get(message.accountId, message.exportId);
  if (job?.state === 'running') await fail(deps, job, reason);
}

async function fail(deps: Pick<ExportDeps, 'exports' | 'clock'>, job: MemoryExport, error: string): Promise<void> {
  await deps.exports.update(job.accountId, job.id, { state: 'failed', error, updatedAt: deps.clock.now().toISOString() });
}

async function writeArchive(deps: ExportDeps, memory: Memory, writer: ArchiveWriter): Promise<void> {
  const { chunks: published, vectors } = await publishedIndex(deps.objects, memory);
  const manifest: Manifest = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: deps.clock.now().toISOString(),
    memory: settingsOf(memory),
    embedder: vectors.embedder,
  };
  await writer.add(MEMBERS.manifest, JSON.stringify(manifest, null, 2));
  const end: EndMarker = { files: 0, sessions: 0, messages: 0, chunks: 0 };
  end.files = await writeFiles(deps, memory, writer);
  const conversations = await writeConversations(deps, memory, writer);
  end.sessions = conversations.sessions;
  end.messages = conversations.messages;
  const chunks = new LineMembers(writer, MEMBERS.chunks);
  for (const chunk of published) {
    const vector = vectors.of(chunk.id);
    await chunks.add({ ...chunk, ...(vector ? { vector: encodeVector(vector) } : {}) });
  }
  end.chunks = await chunks.close();
  const graph = await publishedGraph(deps.objects, memory);
  if (graph) await writer.add(MEMBERS.graph, JSON.stringify(graph));
  await writer.add(MEMBERS.end, JSON.stringify(end));
}

/** The memory's files: their records, extracted text, and the pages of a sitemap or crawl. */
async function writeFiles(deps: ExportDeps, memory: Memory, writer: ArchiveWriter): Promise<number> {
  const members = new LineMembers(writer, MEMBERS.files);
  const links = await deps.links.listByMemory(memory.accountId, memory.id);
  for (let i = 0; i < links.length; i += 100) {
    const ids = links.slice(i, i + 100).map((link) => link.fileId);
    const files = await deps.files.getMany(memory.accountId, ids);
    for (const id of ids) {
      const file = files.get(id);
      if (file) await members.add(await portableFile(deps, file));
    }
  }
  return members.close();
}

async function portableFile(deps: ExportDeps, file: FileRecord): Promise<Record<string, unknown>> {
  const pages = file.hiddenFilesTotal > 0 ? await deps.files.listChildren(file.accountId, file.id) : [];
  const pageRecords = [];
  for (const page of pages.filter((child) => child.state === 'ready')) {
    pageRecords.push({ ...fileRecord(page), text: await textOf(deps, page) });
  }
  return { ...fileRecord(file), text: await textOf(deps, file), ...(pageRecords.length ? { pages: pageRecords } : {}) };
}

/** The fields of a file an archive carries (ids are the exporting deployment's; a restore makes new ones). */
function fileRecord(file: FileRecord): Record<string, unknown> {
  const { id, name, extension, fileType, category, contentType, externalUrl, sourceKey, source, length, size, tokens, createdAt } = file;
  const metadata = (file as FileRecord & { metadata?: unknown }).metadata; // when the file has any
  return {
    ...{ id, name, extension, fileType, category, contentType, externalUrl, sourceKey, source, length, size, tokens, createdAt },
    ...(metadata === undefined ? {} : { metadata }),
  };
}

async function textOf(deps: ExportDeps, file: FileRecord): Promise<string | null> {
  const bytes = file.silverTranscriptKey ? await deps.objects.get(file.silverTranscriptKey) : undefined;
  return bytes ? Buffer.from(bytes).toString('utf8') : null;
}

/** The memory's sessions, then all their messages (a page at a time). */
async function writeConversations(
  deps: ExportDeps,
  memory: Memory,
  writer: ArchiveWriter,
): Promise<{ sessions: number; messages: number }> {
  const sessionMembers = new LineMembers(writer, MEMBERS.sessions);
  const messageMembers = new LineMembers(writer, MEMBERS.messages);
  const links = await deps.sessionLinks.listByMemory(memory.accountId, memory.id);
  const live = [];
  for (const link of links) {
    const session = await deps.sessions.get(memory.accountId, link.sessionId);
    if (!session || session.deletedAt) continue;
    const { id, customerUserId, metadata, createdAt, updatedAt, endedAt } = session;
    await sessionMembers.add({ id, customerUserId, metadata, createdAt, updatedAt, endedAt });
    live.push(session.id);
  }
  const sessions = await sessionMembers.close();
  for (const sessionId of live) {
    let nextToken: string | undefined;
    do {
      const page = await deps.messages.list(memory.accountId, { sessionId }, { limit: 100, ...(nextToken ? { nextToken } : {}) });
      for (const message of page.items) await messageMembers.add(portableMessage(message));
      nextToken = page.nextToken ?? undefined;
    } while (nextToken);
  }
  return { sessions, messages: await messageMembers.close() };
}

function portableMessage(message: Message): Record<string, unknown> {
  const { id, sessionId, role, content, customerUserId, createdAt, updatedAt, sequence } = message;
  return { id, sessionId, role, content, customerUserId, createdAt, updatedAt, ...(sequence === undefined ? {} : { sequence }) };
}

/** Members of JSON lines of one kind, each written once full (LINES_PER_MEMBER or BYTES_PER_MEMBER). */
class LineMembers {
  private pending: unknown[] = [];
  private bytes = 0;
  private part = 0;
  private count = 0;

  constructor(
    private readonly writer: ArchiveWriter,
    private readonly name: (part: number) => string,
  ) {}

  async add(record: unknown): Promise<void> {
    this.pending.push(record);
    this.count += 1;
    this.bytes += JSON.stringify(record).length;
    if (this.pending.length >= LINES_PER_MEMBER || this.bytes >= BYTES_PER_MEMBER) await this.flush();
  }

  /** Writes what is pending; answers the records written in all. */
  async close(): Promise<number> {
    await this.flush();
    return this.count;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.writer.add(this.name(this.part++), encodeLines(this.pending));
    this.pending = [];
    this.bytes = 0;
  }
}
