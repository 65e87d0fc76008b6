import type { Memory, MemoryStep, MemoryType, Page, PageRequest, WebhookDeliveryStatus } from '../../../core/model';
import type { MemoryStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

export class MemoryRepository implements MemoryStore {
  constructor(private readonly table: Table) {}

  async create(memory: Memory): Promise<void> {
    const order = byCreation(memory.createdAt, memory.id);
    const { excludedFileIds: _none, ...stored } = memory; // an empty string set cannot be stored
    await this.table.create({
      ...keys.memory(memory.accountId, memory.id),
      gsi1pk: keys.memoriesOf(memory.accountId),
      gsi1sk: order,
      gsi2pk: keys.memoriesOfType(memory.accountId, memory.memoryType),
      gsi2sk: order,
      kind: 'memory',
      ...stored,
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

  async recordWebhookDelivery(accountId: string, id: string, status: Omit<WebhookDeliveryStatus, 'deadEvents'>): Promise<void> {
    await this.table.apply(keys.memory(accountId, id), {
      expression: 'SET webhookDelivery = :status ADD webhookDeadEvents :dead',
      names: {},
      values: { ':status': status, ':dead': status.outcome === 'dead' ? 1 : 0 },
    });
  }

  async excludeFile(accountId: string, id: string, fileId: string): Promise<void> {
    await this.table.apply(keys.memory(accountId, id), {
      expression: 'ADD excludedFileIds :file',
      names: {},
      values: { ':file': new Set([fileId]) },
    });
  }

  async includeFiles(accountId: string, id: string, sourceIds: readonly string[]): Promise<void> {
    if (sourceIds.length === 0) return;
    await this.table.apply(keys.memory(accountId, id), {
      expression: 'DELETE excludedFileIds :sources',
      names: {},
      values: { ':sources': new Set(sourceIds) },
    });
  }

  async publishIndex(
    accountId: string,
    id: string,
    publication: { expectedVersion: number; changes: Partial<Memory>; excludedBuilt: string[] },
  ): Promise<Memory | undefined> {
    const names: Record<string, string> = { '#version': 'indexVersion' };
    const values: Record<string, unknown> = { ':expected': publication.expectedVersion };
    const assignments = Object.entries(publication.changes).map(([field, value], i) => {
      names[`#s${i}`] = field;
      values[`:s${i}`] = value;
      return `#s${i} = :s${i}`;
    });
    let expression = `SET ${assignments.join(', ')}`;
    if (publication.excludedBuilt.length) {
      values[':built'] = new Set(publication.excludedBuilt);
      expression += ' DELETE excludedFileIds :built';
    }
    const condition = '#version = :expected';
    const item = await this.table.apply(
      keys.memory(accountId, id),
      { expression, names, values },
      { expression: condition, names: {}, values: {} },
    );
    return item ? toMemory(item) : undefined;
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
    entityCount: Number(item.entityCount ?? 0),
    relationCount: Number(item.relationCount ?? 0),
    factCount: Number(item.factCount ?? 0),
    currentJobId: (item.currentJobId ?? null) as string | null,
    failedFiles: (item.failedFiles ?? []) as Memory['failedFiles'],
    failedFileCount: Number(item.failedFileCount ?? (Array.isArray(item.failedFiles) ? item.failedFiles.length : 0)),
    excludedFileIds: item.excludedFileIds instanceof Set ? [...(item.excludedFileIds as Set<string>)] : [],
    lastError: (item.lastError ?? null) as string | null,
    webhookDelivery: item.webhookDelivery
      ? { ...(item.webhookDelivery as Omit<WebhookDeliveryStatus, 'deadEvents'>), deadEvents: Number(item.webhookDeadEvents ?? 0) }
      : null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
