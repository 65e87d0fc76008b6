/**
 * start-ingestion: reserve the token budget for the files waiting in a memory, record the job and queue
 * it. The reservation is one conditional write, so concurrent starts can never spend more than the budget;
 * the worker reconciles it with the exact count when the job ends.
 */
import { BadRequestError, ConflictError } from '../errors';
import type { FileRecord, IngestionJob, Memory } from '../model';
import type { AccountStore, FileStore, JobStore, LinkStore, MemoryStore, QueuePort } from '../ports';
import { estimateTokens } from '../text/tokens';
import type { WorkMessage } from '../work';
import { type EmitDeps, emitWebhookEvent } from './webhooks';
import { getMemory } from './memories';

/** Tokens reserved for a web file not fetched yet (a page of text); reconciled once it is. */
export const UNFETCHED_FILE_TOKEN_ESTIMATE = 2_000;
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
  if (memory.step === 'queued' || memory.step === 'ingesting') {
    throw BadRequestError.forField('memoryID', `memory '${memoryId}' is already ingesting; wait for it to finish`);
  }
  const files = await waitingFiles(deps, accountId, memoryId);
  if (files.length === 0) {
    throw BadRequestError.forField('memoryID', `memory '${memoryId}' has no files waiting; add files first`);
  }
  const needed = files.reduce((sum, file) => sum + tokensNeededFor(file), 0);
  const job = newJob(deps, memory, files, needed);
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
    if (error instanceof ConflictError) {
      throw BadRequestError.forField('memoryID', `memory '${memoryId}' is already ingesting; wait for it to finish`);
    }
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
  const files = await deps.files.getMany(accountId, links.map((link) => link.fileId));
  return links.flatMap((link) => files.get(link.fileId) ?? []);
}

export function tokensNeededFor(file: FileRecord): number {
  if (file.state === 'failed') return 0;
  if (file.tokens !== null) return file.tokens;
  return file.size ? estimateTokens(file.size) : UNFETCHED_FILE_TOKEN_ESTIMATE;
}

async function reserve(deps: IngestionDeps, accountId: string, needed: number) {
  const after = await deps.accounts.reserveTokens(accountId, needed);
  if (after) return after;
  const account = await deps.accounts.get(accountId);
  const available = Math.max(0, account?.tokensRemaining ?? 0);
  throw new BadRequestError(
    `memoryID: ingestion needs ${needed} tokens and the account has ${available} left`,
    { data: { tokensNeeded: needed, tokensAvailable: available, tokensExceeded: needed - available } },
  );
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
