import type { Memory, MemoryStep, MemoryType, Page, PageRequest } from '../../../core/model';
import type { MemoryStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

export class MemoryRepository implements MemoryStore {
  constructor(private readonly table: Table) {}

  async create(memory: Memory): Promise<void> {
    const order = byCreation(memory.createdAt, memory.id);
    await this.table.create({
      ...keys.memory(memory.accountId, memory.id),
      gsi1pk: keys.memoriesOf(memory.accountId),
      gsi1sk: order,
      gsi2pk: keys.memoriesOfType(memory.accountId, memory.memoryType),
      gsi2sk: order,
      kind: 'memory',
      ...memory,
    });
  }

  async get(accountId: string, id: string): Promise<Memory | undefined> {
    const item = await this.table.get(keys.memory(accountId, id));
    return item ? toMemory(item) : undefined;
  }

  async list(accountId: string, memoryType: MemoryType | undefined, page: PageRequest): Promise<Page<Memory>> {
    const query = memoryType
      ? { index: 'gsi2' as const, partition: keys.memoriesOfType(accountId, memoryType) }
      : { index: 'gsi1' as const, partition: keys.memoriesOf(accountId) };
    const result = await this.table.queryPage({ ...query, scope: `memories|${query.partition}`, page });
    return { ...result, items: result.items.map(toMemory) };
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<Memory>,
    condition?: { unlessStep?: MemoryStep[]; currentJobId?: string | null },
  ): Promise<Memory | undefined> {
    const item = await this.table.update(keys.memory(accountId, id), changes, conditionOf(condition));
    return item ? toMemory(item) : undefined;
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.table.delete(keys.memory(accountId, id));
  }
}

function conditionOf(condition?: { unlessStep?: MemoryStep[]; currentJobId?: string | null }): QueryFilter | undefined {
  if (!condition) return undefined;
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (condition.unlessStep?.length) {
    names['#step'] = 'step';
    condition.unlessStep.forEach((step, i) => {
      values[`:step${i}`] = step;
    });
    parts.push(`NOT (#step IN (${Object.keys(values).join(', ')}))`);
  }
  if (condition.currentJobId !== undefined) {
    names['#job'] = 'currentJobId';
    values[':job'] = condition.currentJobId;
    parts.push('#job = :job');
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}

function toMemory(item: Item): Memory {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    name: String(item.name),
    description: String(item.description ?? ''),
    memoryType: item.memoryType as Memory['memoryType'],
    ontology: (item.ontology ?? null) as Memory['ontology'],
    chunkSize: (item.chunkSize ?? null) as number | null,
    chunkOverlap: (item.chunkOverlap ?? null) as number | null,
    webhookUrl: (item.webhookUrl ?? null) as string | null,
    acceleration: Boolean(item.acceleration),
    factExtraction: Boolean(item.factExtraction),
    step: item.step as MemoryStep,
    adapterRepo: String(item.adapterRepo),
    adapterVersion: Number(item.adapterVersion),
    indexVersion: Number(item.indexVersion ?? 0),
    indexPrefix: (item.indexPrefix ?? null) as string | null,
    chunkCount: Number(item.chunkCount ?? 0),
    fileCount: Number(item.fileCount ?? 0),
    currentJobId: (item.currentJobId ?? null) as string | null,
    failedFiles: (item.failedFiles ?? []) as Memory['failedFiles'],
    lastError: (item.lastError ?? null) as string | null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
