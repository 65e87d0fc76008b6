/**
 * start-ingestion: reserve the token budget for the files waiting in a memory, record the job and queue
 * it. The reservation is one conditional write, so concurrent starts can never spend more than the budget;
 * the worker reconciles it with the exact count when the job ends.
 */
import { BadRequestError, ConflictError } from '../errors';
import type { FileRecord, IngestionJob, Memory } from '../model';
import type { AccountStore, JobStore, LinkStore, MemoryStore, QueuePort } from '../ports';
import type { FileStore } from '../files/ports';
import { estimateTokens } from '../../engine';
import type { WorkMessage } from '../work';
import { type EmitDeps, emitWebhookEvent } from '../webhooks/outbox';
import { getMemory } from './memories';

/** Tokens reserved for a web file not fetched yet (a page of text); reconciled once it is. */
const UNFETCHED_FILE_TOKEN_ESTIMATE = 2_000;
/** File ids `memory.ingestion.started` lists (its `fileCount` counts them all): an event must fit one item. */
const STARTED_FILES_LISTED = 1_000;

export interface IngestionDeps extends EmitDeps {
  accounts: AccountStore;
  memories: MemoryStore;
  files: FileStore;
  links: LinkStore;
  jobs: JobStore;
  queue: QueuePort;
}

export interface IngestionStarted {
  job: IngestionJob;
  tokensRemaining: number;
  totalTokenLimit: number;
}

export async function startIngestion(deps: IngestionDeps, accountId: string, memoryId: string): Promise<IngestionStarted> {
  const memory = await getMemory(deps, accountId, memoryId);
  if (memory.step === 'queued' || memory.step === 'ingesting') throw busy(memoryId);
  const files = await waitingFiles(deps, accountId, memoryId);
  if (files.length === 0) {
    throw BadRequestError.forField('memoryID', `memory '${memoryId}' has no files waiting; add files first`);
  }
  try {
    return await launchJob(deps, memory, files);
  } catch (error) {
    if (error instanceof ConflictError) throw busy(memoryId);
    throw error;
  }
}

type RefreshMessage = Extract<WorkMessage, { kind: 'memory.refresh' }>;

/**
 * The `memory.refresh` work: files of a memory whose content changed (an upsert, an import, a re-sync) are
 * ingested again in a job of their own, charged for their new tokens only; the previous chunks, entities
 * and facts of those files are replaced when it publishes. A busy memory is tried again later.
 */
export async function refreshMemory(
  deps: IngestionDeps & { config: { work: { ingestWaitSeconds: number } } },
  message: RefreshMessage,
): Promise<void> {
  const memory = await deps.memories.get(message.accountId, message.memoryId);
  if (!memory) return;
  const later = () => deps.queue.send(message, { delaySeconds: deps.config.work.ingestWaitSeconds });
  if (memory.step === 'queued' || memory.step === 'ingesting') return later();
  // a job that published is still marking its files ingested until it is reconciled: they are not waiting
  if ((await deps.jobs.listByMemory(memory.accountId, memory.id)).some((job) => !job.reconciled)) return later();
  const wanted = message.fileIds ? new Set(message.fileIds) : undefined;
  const files = (await waitingFiles(deps, memory.accountId, memory.id)).filter((file) => !wanted || wanted.has(file.id));
  if (files.length === 0) return;
  try {
    await launchJob(deps, memory, files, message.charge);
  } catch (error) {
    if (error instanceof ConflictError) return later();
    if (!(error instanceof BadRequestError)) throw error;
    await deps.memories.update(memory.accountId, memory.id, { lastError: error.message, updatedAt: deps.clock.now().toISOString() });
  }
}

const busy = (memoryId: string) => BadRequestError.forField('memoryID', `memory '${memoryId}' is already ingesting; wait for it to finish`);

/** Reserves the budget, records the job, moves the memory to `queued` and queues the work; ConflictError when busy. */
async function launchJob(
  deps: IngestionDeps,
  memory: Memory,
  files: FileRecord[],
  charge?: Record<string, number>,
): Promise<IngestionStarted> {
  const { accountId, id: memoryId } = memory;
  const needed = files.reduce((sum, file) => sum + (charge?.[file.id] ?? tokensNeededFor(file)), 0);
  const job = { ...newJob(deps, memory, files, needed), ...(charge ? { charge } : {}) };
  const account = await reserve(deps, accountId, needed);
  try {
    await deps.jobs.create(job);
    await deps.memories.update(
      accountId,
      memoryId,
      { step: 'queued', currentJobId: job.id, updatedAt: job.createdAt, lastError: null },
      { unlessStep: ['queued', 'ingesting'] },
    );
  } catch (error) {
    await deps.accounts.refundTokens(accountId, needed, job.id);
    await deps.jobs.update(accountId, job.id, { state: 'failed', reconciled: true, updatedAt: job.createdAt });
    throw error;
  }
  await requeueUnprocessed(deps, accountId, files);
  await deps.queue.send({ kind: 'memory.ingest', accountId, memoryId, jobId: job.id } satisfies WorkMessage);
  await emitWebhookEvent(deps, {
    accountId,
    url: memory.webhookUrl,
    type: 'memory.ingestion.started',
    data: {
      memoryID: memoryId,
      jobID: job.id,
      files: job.fileIds.slice(0, STARTED_FILES_LISTED),
      fileCount: job.fileIds.length,
      tokensForIngestion: needed,
    },
    eventId: `${job.id}.started`,
  });
  return { job, tokensRemaining: account.tokensRemaining, totalTokenLimit: account.totalTokenLimit };
}

/** Files added to the memory and not yet in its index. */
async function waitingFiles(deps: IngestionDeps, accountId: string, memoryId: string): Promise<FileRecord[]> {
  const links = (await deps.links.listByMemory(accountId, memoryId)).filter((link) => !link.ingestedAt);
  const files = await deps.files.getMany(
    accountId,
    links.map((link) => link.fileId),
  );
  return links.flatMap((link) => files.get(link.fileId) ?? []);
}

function tokensNeededFor(file: FileRecord): number {
  if (file.state === 'failed') return 0;
  if (file.tokens !== null) return file.tokens;
  return file.size ? estimateTokens(file.size) : UNFETCHED_FILE_TOKEN_ESTIMATE;
}

async function reserve(deps: IngestionDeps, accountId: string, needed: number) {
  const after = await deps.accounts.reserveTokens(accountId, needed);
  if (after) return after;
  const account = await deps.accounts.get(accountId);
  const available = Math.max(0, account?.tokensRemaining ?? 0);
  throw new BadRequestError(`memoryID: ingestion needs ${needed} tokens and the account has ${available} left`, {
    data: { tokensNeeded: needed, tokensAvailable: available, tokensExceeded: needed - available },
  });
}

function newJob(deps: IngestionDeps, memory: Memory, files: FileRecord[], reserved: number): IngestionJob {
  const now = deps.clock.now().toISOString();
  return {
    id: deps.ids.uuid(),
    accountId: memory.accountId,
    memoryId: memory.id,
    fileIds: files.map((file) => file.id),
    reservedTokens: reserved,
    usedTokens: 0,
    state: 'queued',
    reconciled: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** A file whose processing message was lost (say the queue was down at create) is queued again. */
async function requeueUnprocessed(deps: IngestionDeps, accountId: string, files: FileRecord[]): Promise<void> {
  for (const file of files) {
    if (file.state === 'pending') await deps.queue.send({ kind: 'file.process', accountId, fileId: file.id } satisfies WorkMessage);
  }
}
