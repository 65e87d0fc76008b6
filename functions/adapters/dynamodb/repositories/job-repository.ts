import { z } from 'zod';
import type { IngestionJob, JobSummary } from '../../../core/model';
import type { JobStore } from '../../../core/ports';
import { itemOf, itemSchema, readAll, storedTimestamp } from '../item-schema';
import { byCreation, JOB_FILES_PREFIX, keys } from '../keys';
import type { Table } from '../table';

/** A job without its file list, as stored (jobs recorded before file lists had parts also carry `fileIds`). */
const jobItem = itemSchema<JobSummary>(
  'job',
  z.object({
    id: z.string(),
    accountId: z.string(),
    memoryId: z.string(),
    reservedTokens: z.number(),
    usedTokens: z.number().default(0),
    charge: z.record(z.string(), z.number()).optional(),
    state: z.enum(['queued', 'running', 'completed', 'failed']),
    reconciled: z.boolean().default(false),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
);

/** One part of a job's file list; also the inline list of a job recorded before parts. */
const fileListItem = itemSchema<{ fileIds: string[] }>('jobFiles', z.object({ fileIds: z.array(z.string()) }));

/**
 * File ids kept in one part of a job's file list: 4,000 ids of 36 characters are about 150 KB, well
 * under DynamoDB's 400 KB an item, so a job may hold any number of files.
 */
const FILES_PER_PART = 4_000;

/**
 * Ingestion jobs. The job item (indexed under its memory on gsi1) carries the state and the budget; its
 * file list lies in part items beside it, in the job's own partition, so one query reads it all.
 */
export class JobRepository implements JobStore {
  constructor(private readonly table: Table) {}

  /** The parts first, the job last: a job that can be read always has its whole file list. */
  async create(job: IngestionJob): Promise<void> {
    const { fileIds, ...summary } = job;
    const parts = partsOf(fileIds).map((ids, part) => itemOf(fileListItem, keys.jobFiles(job.accountId, job.id, part), { fileIds: ids }));
    await this.table.putMany(parts);
    try {
      const listing = { gsi1pk: keys.jobsOfMemory(job.accountId, job.memoryId), gsi1sk: byCreation(job.createdAt, job.id) };
      await this.table.create(itemOf(jobItem, { ...keys.job(job.accountId, job.id), ...listing }, summary));
    } catch (error) {
      await this.table.deleteMany(parts);
      throw error;
    }
  }

  async get(accountId: string, id: string): Promise<IngestionJob | undefined> {
    const key = keys.job(accountId, id);
    const items = await this.table.queryAll(key.pk);
    const head = items.find((item) => item.sk === key.sk);
    if (!head) return undefined;
    // jobs recorded before file lists had parts carry their list inline
    const parts = head.fileIds === undefined ? items.filter((item) => String(item.sk).startsWith(JOB_FILES_PREFIX)) : [head];
    return { ...jobItem.read(head), fileIds: readAll(fileListItem, parts).flatMap((part) => part.fileIds) };
  }

  async update(accountId: string, id: string, changes: Partial<JobSummary>, whenState?: IngestionJob['state'][]): Promise<void> {
    const values = Object.fromEntries((whenState ?? []).map((state, i) => [`:js${i}`, state]));
    const condition = whenState
      ? { expression: `#jstate IN (${Object.keys(values).join(', ')})`, names: { '#jstate': 'state' }, values }
      : undefined;
    await this.table.update(keys.job(accountId, id), jobItem.changes(changes), condition);
  }

  async listByMemory(accountId: string, memoryId: string): Promise<JobSummary[]> {
    return readAll(jobItem, await this.table.queryAll(keys.jobsOfMemory(accountId, memoryId), undefined, 'gsi1'));
  }

  async delete(accountId: string, id: string): Promise<void> {
    const items = await this.table.queryAll(keys.job(accountId, id).pk);
    await this.table.deleteMany(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  }
}

function partsOf(fileIds: readonly string[]): string[][] {
  return Array.from({ length: Math.ceil(fileIds.length / FILES_PER_PART) }, (_, i) =>
    fileIds.slice(i * FILES_PER_PART, (i + 1) * FILES_PER_PART),
  );
}
