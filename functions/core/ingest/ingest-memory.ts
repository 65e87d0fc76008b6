/**
 * The `memory.ingest` work: once every file of the job is processed, chunk the ready ones into the memory,
 * publish the next index version, settle the token budget and tell the memory's webhook. Redelivery is
 * safe at every step: chunk objects and index versions are rewritten whole, the publish is conditional,
 * the refund is recorded once per job, and events have stable ids.
 */
import type { FileRecord, IngestionJob, Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { AccountStore, Clock, FileStore, JobStore, QueuePort } from '../ports';
import { type EmitDeps, emitWebhookEvent } from '../use-cases/webhooks';
import type { WorkMessage } from '../work';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { chunkFile, encodeChunks, type StoredChunk } from './chunks';
import { type IndexDeps, buildAndPublishIndex } from './memory-index';
import { emitMetric } from '../metrics';

export interface IngestDeps extends IndexDeps, EmitDeps {
  accounts: AccountStore;
  files: FileStore;
  jobs: JobStore;
  queue: QueuePort;
  clock: Clock;
  config: { work: { ingestWaitSeconds: number } };
}

type IngestMessage = Extract<WorkMessage, { kind: 'memory.ingest' }>;

/** Files read and chunked at once (each is a few store round trips). */
const FILE_CONCURRENCY = STORE_CONCURRENCY;

interface FileOutcome {
  file: FileRecord;
  chunks?: StoredChunk[];
  error?: string;
}

export async function ingestMemory(deps: IngestDeps, message: IngestMessage): Promise<void> {
  const { accountId, memoryId, jobId } = message;
  const job = await deps.jobs.get(accountId, jobId);
  if (!job || job.state === 'completed' || job.state === 'failed') return;
  const memory = await deps.memories.get(accountId, memoryId);
  if (!memory) return endJob(deps, job, 'failed', 0);
  const found = await deps.files.getMany(accountId, job.fileIds);
  const files = job.fileIds.map((id) => found.get(id));
  if (files.some((file) => file?.state === 'pending' || file?.state === 'processing')) {
    await markRunning(deps, job);
    await deps.queue.send(message, { delaySeconds: deps.config.work.ingestWaitSeconds });
    return;
  }
  await markRunning(deps, job);
  const outcomes = await mapConcurrently(files, FILE_CONCURRENCY, (file, i) => chunkInto(deps, memory, file, job.fileIds[i] ?? ''));
  await finish(deps, job, outcomes);
}

async function markRunning(deps: IngestDeps, job: IngestionJob): Promise<void> {
  if (job.state !== 'queued') return;
  const now = deps.clock.now().toISOString();
  await deps.jobs.update(job.accountId, job.id, { state: 'running', updatedAt: now });
  await deps.memories.update(job.accountId, job.memoryId, { step: 'ingesting', updatedAt: now }, { currentJobId: job.id });
}

async function chunkInto(deps: IngestDeps, memory: Memory, file: FileRecord | undefined, fileId: string): Promise<FileOutcome> {
  if (!file) return { file: { id: fileId } as FileRecord, error: 'the file was deleted before ingestion' };
  if (file.state === 'failed') return { file, error: file.error ?? 'processing failed' };
  const chunks = file.hiddenFilesTotal > 0 ? await chunkPages(deps, memory, file) : await chunkText(deps, memory, file);
  if (!chunks) return { file, error: 'the extracted text is missing; create the file again' };
  const key = objectKeys.chunks(memory.accountId, memory.id, file.id);
  await deps.objects.put(key, encodeChunks(chunks), 'application/json');
  await deps.files.update(memory.accountId, file.id, { goldChunkKey: key, jobId: memory.currentJobId });
  return { file, chunks };
}

async function chunkText(deps: IngestDeps, memory: Memory, file: FileRecord): Promise<StoredChunk[] | undefined> {
  const text = file.silverTranscriptKey ? await deps.objects.get(file.silverTranscriptKey) : undefined;
  return text ? chunkFile(memory, file.id, Buffer.from(text).toString('utf8'), titleOf(file.name)) : undefined;
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
function titleOf(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[_-]+/g, ' ').trim();
}

/**
 * Failed files a memory (and its ingestion's webhook) lists, first ones first, each reason cut to
 * FAILED_REASON_CHARS: an ingestion of thousands of broken files must still fit DynamoDB's 400 KB an item.
 * `failedFileCount` counts them all; each file keeps its whole reason in `error`.
 */
export const FAILED_FILES_LISTED = 100;
const FAILED_REASON_CHARS = 300;

async function finish(deps: IngestDeps, job: IngestionJob, outcomes: FileOutcome[]): Promise<void> {
  const ingested = outcomes.filter((o) => o.chunks);
  const failed = outcomes.filter((o) => o.error);
  const failedFileCount = failed.length;
  const failedFiles = failed
    .slice(0, FAILED_FILES_LISTED)
    .map((o) => ({ fileId: o.file.id, error: (o.error ?? '').slice(0, FAILED_REASON_CHARS) }));
  const now = deps.clock.now().toISOString();
  const step = ingested.length === 0 ? 'failed' : 'ready';
  const published = await buildAndPublishIndex(deps, job.accountId, job.memoryId, {
    managed: true,
    added: new Map(ingested.map((o) => [o.file.id, o.chunks ?? []])),
    changes: ({ chunkCount, fileCount }) => ({
      step, chunkCount, fileCount, failedFiles, failedFileCount, currentJobId: null, updatedAt: now,
      lastError: step === 'failed' ? 'no file of the ingestion could be processed' : null,
    }),
  });
  await mapConcurrently(ingested, FILE_CONCURRENCY, (o) => deps.links.markIngested(job.accountId, job.memoryId, o.file.id, now));
  const used = ingested.reduce((sum, o) => sum + (job.charge?.[o.file.id] ?? o.file.tokens ?? 0), 0) + published.extractionTokens;
  await endJob(deps, job, step === 'ready' ? 'completed' : 'failed', used);
  const properties = { accountId: job.accountId, memoryId: job.memoryId, jobId: job.id, files: outcomes.length, failed: failedFileCount };
  emitMetric('TokensIngested', used, { properties });
  emitMetric('TokensCharged', used, { dimension: 'ingestion', properties });
  const memoryType = published.memory?.memoryType ?? 'unknown';
  emitMetric('IngestionSeconds', (Date.parse(now) - Date.parse(job.createdAt)) / 1000, { dimension: memoryType, properties });
  if (published.memory) await announce(deps, published.memory, job, outcomes, { failedFiles, failedFileCount });
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
      memoryID: memory.id, jobID: job.id, chunkCount: memory.chunkCount, fileCount: memory.fileCount,
      failedFiles: failures.failedFiles.map(({ fileId, error }) => ({ fileID: fileId, error })),
      failedFileCount: failures.failedFileCount,
    },
    eventId: `${job.id}.ended`,
  });
}
