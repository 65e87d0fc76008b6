import type { IngestionJob, JobSummary } from '../../../core/model';
import type { JobStore } from '../../../core/ports';
import { byCreation, JOB_FILES_PREFIX, keys } from '../keys';
import type { Item, Table } from '../table';

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
    const parts = partsOf(fileIds).map((ids, part) => ({ ...keys.jobFiles(job.accountId, job.id, part), kind: 'jobFiles', fileIds: ids }));
    await this.table.putMany(parts);
    try {
      await this.table.create({
        ...keys.job(job.accountId, job.id),
        gsi1pk: keys.jobsOfMemory(job.accountId, job.memoryId),
        gsi1sk: byCreation(job.createdAt, job.id),
        kind: 'job',
        ...summary,
      });
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
    const parts = items.filter((item) => String(item.sk).startsWith(JOB_FILES_PREFIX));
    const fileIds = Array.isArray(head.fileIds) ? head.fileIds : parts.flatMap((part) => part.fileIds);
    return { ...toSummary(head), fileIds: fileIds as string[] };
  }

  async update(accountId: string, id: string, changes: Partial<JobSummary>, whenState?: IngestionJob['state'][]): Promise<void> {
    const values = Object.fromEntries((whenState ?? []).map((state, i) => [`:js${i}`, state]));
    const condition = whenState
      ? { expression: `#jstate IN (${Object.keys(values).join(', ')})`, names: { '#jstate': 'state' }, values }
      : undefined;
    await this.table.update(keys.job(accountId, id), changes, condition);
  }

  async listByMemory(accountId: string, memoryId: string): Promise<JobSummary[]> {
    return (await this.table.queryAll(keys.jobsOfMemory(accountId, memoryId), undefined, 'gsi1')).map(toSummary);
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

function toSummary(item: Item): JobSummary {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    memoryId: String(item.memoryId),
    reservedTokens: Number(item.reservedTokens),
    usedTokens: Number(item.usedTokens ?? 0),
    ...(item.charge ? { charge: item.charge as Record<string, number> } : {}),
    state: item.state as IngestionJob['state'],
    reconciled: Boolean(item.reconciled),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
