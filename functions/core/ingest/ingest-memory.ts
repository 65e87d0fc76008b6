/**
 * The `memory.ingest` work: once every file of the job is processed, chunk the ready ones into the memory,
 * publish the next index version, settle the token budget and tell the memory's webhook. Redelivery is
 * safe at every step: chunk objects and index versions are rewritten whole, the publish is conditional,
 * the refund is recorded once per job, and events have stable ids.
 */
import { ConflictError } from '../errors';
import type { FileRecord, IngestionJob, Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { AccountStore, Clock, JobStore, QueuePort } from '../ports';
import type { FileStore } from '../files/ports';
import { type EmitDeps, emitWebhookEvent } from '../webhooks/outbox';
import type { WorkMessage } from '../work';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { chunkFile } from './file-chunks';
import { encodeChunks, type StoredChunk } from '../stored-index/chunks';
import { type IndexDeps, buildAndPublishIndex } from './memory-index';
import { emitMetric } from '../metrics';
import { StagedTextReader } from './staged-texts';

export interface IngestDeps extends IndexDeps, EmitDeps {
  accounts: AccountStore;
  files: FileStore;
  jobs: JobStore;
  queue: QueuePort;
  clock: Clock;
  config: { work: { ingestWaitSeconds: number; retireAfterSeconds: number } };
}

type IngestMessage = Extract<WorkMessage, { kind: 'memory.ingest' }>;

/** Files read and chunked at once (each is a few store round trips). */
const FILE_CONCURRENCY = STORE_CONCURRENCY;

interface FileOutcome {
  file: FileRecord;
  chunks?: StoredChunk[];
  error?: string;
  /** The memory's link to the file as read before the file (its `updatedAt`). */
  linkSeenAt?: string;
}

export async function ingestMemory(deps: IngestDeps, message: IngestMessage): Promise<void> {
  const { accountId, memoryId, jobId } = message;
  const job = await deps.jobs.get(accountId, jobId);
  if (!job || job.state === 'completed' || job.state === 'failed') return;
  const memory = await deps.memories.get(accountId, memoryId);
  if (!memory) return endJob(deps, job, 'failed', 0);
  // the links first: a content change after this read (an upsert) keeps its link waiting (recordIngested)
  const links = await deps.links.getMany(accountId, memoryId, job.fileIds);
  const found = await deps.files.getMany(accountId, job.fileIds);
  const files = job.fileIds.map((id) => found.get(id));
  if (files.some((file) => file?.state === 'pending' || file?.state === 'processing')) {
    await markRunning(deps, job);
    await deps.queue.send(message, { delaySeconds: deps.config.work.ingestWaitSeconds });
    return;
  }
  await markRunning(deps, job);
  // the files an import staged in one batch are read together, from that one object
  const staged = new StagedTextReader(deps.objects, files);
  const outcomes = new Array<FileOutcome>(files.length);
  await mapConcurrently(StagedTextReader.order(files), FILE_CONCURRENCY, async (i) => {
    const fileId = job.fileIds[i] ?? '';
    outcomes[i] = { ...(await chunksOf(deps, memory, files[i], fileId, staged)), linkSeenAt: links.get(fileId)?.updatedAt };
  });
  await finish(deps, job, outcomes, staged.keys());
}

async function markRunning(deps: IngestDeps, job: IngestionJob): Promise<void> {
  if (job.state !== 'queued') return;
  const now = deps.clock.now().toISOString();
  await deps.jobs.update(job.accountId, job.id, { state: 'running', updatedAt: now });
  await deps.memories.update(job.accountId, job.memoryId, { step: 'ingesting', updatedAt: now }, { currentJobId: job.id });
}

/** A file's chunks for the memory (read from its text); its gold artefact is written once the index is published. */
async function chunksOf(
  deps: IngestDeps,
  memory: Memory,
  file: FileRecord | undefined,
  fileId: string,
  staged: StagedTextReader,
): Promise<FileOutcome> {
  if (!file) return { file: { id: fileId } as FileRecord, error: 'the file was deleted before ingestion' };
  if (file.state === 'failed') return { file, error: file.error ?? 'processing failed' };
  const chunks = file.hiddenFilesTotal > 0 ? await chunkPages(deps, memory, file) : await chunkText(deps, memory, file, staged);
  if (!chunks) return { file, error: 'the extracted text is missing; create the file again' };
  return { file, chunks };
}

/**
 * After the publish (the files are searchable): each file's chunks as its gold artefact, the file naming it
 * and the job, and the memory's link marked ingested; false when the file changed since the run read its
 * link (the link waits). A crash before the job ends redoes all of it on redelivery (objects are rewritten
 * whole, the publish is a new version).
 */
async function recordIngested(deps: IngestDeps, job: IngestionJob, outcome: FileOutcome, at: string): Promise<boolean> {
  const key = objectKeys.chunks(job.accountId, job.memoryId, outcome.file.id);
  await deps.objects.put(key, encodeChunks(outcome.chunks ?? []), 'application/json');
  await deps.files.update(job.accountId, outcome.file.id, { goldChunkKey: key, jobId: job.id, stagedTextKey: null });
  return deps.links.markIngested(job.accountId, job.memoryId, outcome.file.id, at, outcome.linkSeenAt);
}

/** A file's chunks, from the text its import staged or else from its transcript. */
async function chunkText(deps: IngestDeps, memory: Memory, file: FileRecord, staged: StagedTextReader): Promise<StoredChunk[] | undefined> {
  const text = (await staged.textOf(file)) ?? (await transcriptOf(deps, file));
  return text ? chunkFile(memory, file.id, text, titleOf(file.name)) : undefined;
}

async function transcriptOf(deps: IngestDeps, file: FileRecord): Promise<string | undefined> {
  const bytes = file.silverTranscriptKey ? await deps.objects.get(file.silverTranscriptKey) : undefined;
  return bytes ? Buffer.from(bytes).toString('utf8').trim() : undefined; // a plain-text file's own bytes keep their final newline
}

/** A sitemap or crawl: the chunks of each page that was read, and how many pages entered the memory. */
async function chunkPages(deps: IngestDeps, memory: Memory, parent: FileRecord): Promise<StoredChunk[]> {
  const pages = (await deps.files.listChildren(parent.accountId, parent.id)).filter((page) => page.state === 'ready');
  const chunks: StoredChunk[] = [];
  for (const page of pages) {
    const text = page.silverTranscriptKey ? await deps.objects.get(page.silverTranscriptKey) : undefined;
    if (text) chunks.push(...chunkFile(memory, parent.id, Buffer.from(text).toString('utf8'), page.name, page.id));
  }
  await deps.files.update(parent.accountId, parent.id, { hiddenFilesIngested: pages.length });
  return chunks;
}

/** A file name as a title: without its extension, separators as spaces. */
export function titleOf(name: string): string {
  return name
    .replace(/\.[A-Za-z0-9]{1,8}$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
}

/**
 * Failed files a memory (and its ingestion's webhook) lists, first ones first, each reason cut to
 * FAILED_REASON_CHARS: an ingestion of thousands of broken files must still fit DynamoDB's 400 KB an item.
 * `failedFileCount` counts them all; each file keeps its whole reason in `error`.
 */
export const FAILED_FILES_LISTED = 100;
const FAILED_REASON_CHARS = 300;

async function finish(deps: IngestDeps, job: IngestionJob, outcomes: FileOutcome[], stagedKeys: readonly string[]): Promise<void> {
  const ingested = outcomes.filter((o) => o.chunks);
  const failed = outcomes.filter((o) => o.error);
  const failedFileCount = failed.length;
  const failedFiles = failed
    .slice(0, FAILED_FILES_LISTED)
    .map((o) => ({ fileId: o.file.id, error: (o.error ?? '').slice(0, FAILED_REASON_CHARS) }));
  const now = deps.clock.now().toISOString();
  const step = ingested.length === 0 ? 'failed' : 'ready';
  // searchable from here on; the memory turns `ready` once every file's gold artefact and link are written
  const published = await buildAndPublishIndex(deps, job.accountId, job.memoryId, {
    managed: true,
    onlyAdded: true,
    added: new Map(ingested.map((o) => [o.file.id, o.chunks ?? []])),
    fileTimes: new Map(ingested.map((o) => [o.file.id, { createdAt: o.file.createdAt, updatedAt: o.file.updatedAt }])),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, updatedAt: now }),
  });
  let memory = published.memory;
  if (memory) {
    const marked = await mapConcurrently(ingested, FILE_CONCURRENCY, (o) => recordIngested(deps, job, o, now));
    // files changed while this run read them wait again: a job of their own ingests the new content
    const changed = ingested.filter((_, i) => !marked[i]).map((o) => o.file.id);
    if (changed.length)
      await deps.queue.send({ kind: 'memory.refresh', accountId: job.accountId, memoryId: job.memoryId, fileIds: changed });
    const lastError = step === 'failed' ? 'no file of the ingestion could be processed' : null;
    memory = await settleMemory(deps, job, { step, failedFiles, failedFileCount, currentJobId: null, lastError, updatedAt: now });
  }
  await deps.objects.deleteMany(stagedKeys); // read: a later run reads the transcripts
  const used = ingested.reduce((sum, o) => sum + (job.charge?.[o.file.id] ?? o.file.tokens ?? 0), 0) + published.extractionTokens;
  await endJob(deps, job, step === 'ready' ? 'completed' : 'failed', used);
  const properties = { accountId: job.accountId, memoryId: job.memoryId, jobId: job.id, files: outcomes.length, failed: failedFileCount };
  emitMetric('TokensIngested', used, { properties });
  emitMetric('TokensCharged', used, { dimension: 'ingestion', properties });
  const memoryType = memory?.memoryType ?? 'unknown';
  emitMetric('IngestionSeconds', (Date.parse(now) - Date.parse(job.createdAt)) / 1000, { dimension: memoryType, properties });
  if (memory) await announce(deps, memory, job, outcomes, { failedFiles, failedFileCount });
}

/** The job's end on the memory item (its step, failures, no current job); a redelivered job finds it done. */
async function settleMemory(deps: IngestDeps, job: IngestionJob, changes: Partial<Memory>): Promise<Memory | undefined> {
  try {
    return await deps.memories.update(job.accountId, job.memoryId, changes, { currentJobId: job.id });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return deps.memories.get(job.accountId, job.memoryId);
  }
}

/** Ends a job and settles its reservation: unused tokens go back, extra ones are charged, once. */
export async function endJob(deps: IngestDeps, job: IngestionJob, state: 'completed' | 'failed', used: number): Promise<void> {
  const now = deps.clock.now().toISOString();
  await deps.jobs.update(job.accountId, job.id, { state, usedTokens: used, updatedAt: now });
  await deps.accounts.refundTokens(job.accountId, job.reservedTokens - used, job.id);
  await deps.jobs.update(job.accountId, job.id, { reconciled: true });
  await deps.accounts.settleRefund(job.accountId, job.id);
}

async function announce(
  deps: IngestDeps,
  memory: Memory,
  job: IngestionJob,
  outcomes: FileOutcome[],
  failures: Pick<Memory, 'failedFiles' | 'failedFileCount'>,
): Promise<void> {
  const base = { accountId: job.accountId, url: memory.webhookUrl };
  for (const o of outcomes) {
    const ready = !o.error;
    await emitWebhookEvent(deps, {
      ...base,
      type: ready ? 'file.ready' : 'file.failed',
      data: { fileID: o.file.id, memoryID: memory.id, jobID: job.id, ...(ready ? {} : { error: o.error }) },
      eventId: `${job.id}.${o.file.id}`,
    });
  }
  const completed = memory.step === 'ready';
  await emitWebhookEvent(deps, {
    ...base,
    type: completed ? 'memory.ingestion.completed' : 'memory.ingestion.failed',
    data: {
      memoryID: memory.id,
      jobID: job.id,
      chunkCount: memory.chunkCount,
      fileCount: memory.fileCount,
      failedFiles: failures.failedFiles.map(({ fileId, error }) => ({ fileID: fileId, error })),
      failedFileCount: failures.failedFileCount,
    },
    eventId: `${job.id}.ended`,
  });
}
