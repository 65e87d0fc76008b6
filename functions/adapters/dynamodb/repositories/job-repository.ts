import type { IngestionJob } from '../../../core/model';
import type { JobStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, Table } from '../table';

export class JobRepository implements JobStore {
  constructor(private readonly table: Table) {}

  async create(job: IngestionJob): Promise<void> {
    await this.table.create({
      ...keys.job(job.accountId, job.id),
      gsi1pk: keys.jobsOfMemory(job.accountId, job.memoryId),
      gsi1sk: byCreation(job.createdAt, job.id),
      kind: 'job',
      ...job,
    });
  }

  async get(accountId: string, id: string): Promise<IngestionJob | undefined> {
    const item = await this.table.get(keys.job(accountId, id));
    return item ? toJob(item) : undefined;
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<IngestionJob>,
    whenState?: IngestionJob['state'][],
  ): Promise<IngestionJob | undefined> {
    const values = Object.fromEntries((whenState ?? []).map((state, i) => [`:js${i}`, state]));
    const condition = whenState
      ? { expression: `#jstate IN (${Object.keys(values).join(', ')})`, names: { '#jstate': 'state' }, values }
      : undefined;
    const item = await this.table.update(keys.job(accountId, id), changes, condition);
    return item ? toJob(item) : undefined;
  }

  async listByMemory(accountId: string, memoryId: string): Promise<IngestionJob[]> {
    return (await this.table.queryAll(keys.jobsOfMemory(accountId, memoryId), undefined, 'gsi1')).map(toJob);
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.table.delete(keys.job(accountId, id));
  }
}

function toJob(item: Item): IngestionJob {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    memoryId: String(item.memoryId),
    fileIds: (item.fileIds ?? []) as string[],
    reservedTokens: Number(item.reservedTokens),
    usedTokens: Number(item.usedTokens ?? 0),
    state: item.state as IngestionJob['state'],
    reconciled: Boolean(item.reconciled),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
