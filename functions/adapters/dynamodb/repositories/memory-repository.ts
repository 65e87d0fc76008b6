import { z } from 'zod';
import {
  MEMORY_TYPES,
  type Memory,
  type MemoryStep,
  type MemoryType,
  ONTOLOGIES,
  type Page,
  type PageRequest,
  type SourceRef,
  sourceIdOf,
  type WebhookDeliveryStatus,
} from '../../../core/model';
import type { MemoryStore } from '../../../core/ports';
import { count, itemOf, itemSchema, nullable, readAll, stringSet, storedTimestamp } from '../item-schema';
import { byCreation, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

/** The last webhook try, as stored: the dead-event count lives beside it (`webhookDeadEvents`, an ADD counter). */
const lastDelivery = z.object({
  eventId: z.string(),
  eventType: z.string(),
  outcome: z.enum(['delivered', 'retrying', 'dead']),
  attempts: z.number(),
  lastStatus: nullable(z.number()),
  lastError: nullable(z.string()),
  at: storedTimestamp,
});

/** A failed file of the last ingestion: `fileId`, or `fileID` as versions before it wrote. */
const failedFile = z
  .object({ fileId: z.string().optional(), fileID: z.string().optional(), error: z.string() })
  .refine((entry) => (entry.fileId ?? entry.fileID) !== undefined, 'names no file')
  .transform(({ fileId, fileID, error }) => ({ fileId: fileId ?? fileID ?? '', error }));

/**
 * A memory as stored. Counts, the index pointer, failures and the webhook status came with later issues:
 * older memories have none (0, null, []). `excludedFileIds` is a string set, absent when empty.
 */
const memoryItem = itemSchema<Memory>(
  'memory',
  z
    .object({
      id: z.string(),
      accountId: z.string(),
      name: z.string(),
      description: z.string().default(''),
      memoryType: z.enum(MEMORY_TYPES),
      ontology: nullable(z.enum(ONTOLOGIES)),
      chunkSize: nullable(z.number()),
      chunkOverlap: nullable(z.number()),
      webhookUrl: nullable(z.string()),
      acceleration: z.boolean(),
      factExtraction: z.boolean(),
      step: z.enum(['select', 'queued', 'ingesting', 'ready', 'failed']),
      adapterRepo: z.string(),
      adapterVersion: z.number(),
      indexVersion: count,
      indexPrefix: nullable(z.string()),
      chunkCount: count,
      fileCount: count,
      entityCount: count,
      relationCount: count,
      factCount: count,
      currentJobId: nullable(z.string()),
      failedFiles: z.array(failedFile).default([]),
      failedFileCount: z.number().optional(),
      excludedFileIds: stringSet,
      lastError: nullable(z.string()),
      webhookDelivery: nullable(lastDelivery),
      webhookDeadEvents: count,
      createdAt: storedTimestamp,
      updatedAt: storedTimestamp,
    })
    .transform(({ webhookDeadEvents, webhookDelivery, failedFileCount, ...memory }) => ({
      ...memory,
      failedFileCount: failedFileCount ?? memory.failedFiles.length,
      webhookDelivery: webhookDelivery ? { ...webhookDelivery, deadEvents: webhookDeadEvents } : null,
    })),
  { encode: storedMemory },
);

/** The stored form: no empty string set, and the webhook status split from its ADD counter. */
function storedMemory({ excludedFileIds, webhookDelivery, ...memory }: Memory) {
  const { deadEvents, ...lastTry } = webhookDelivery ?? { deadEvents: 0 };
  return {
    ...memory,
    ...(excludedFileIds.length ? { excludedFileIds: new Set(excludedFileIds) } : {}),
    ...(webhookDelivery ? { webhookDelivery: lastTry } : {}),
    webhookDeadEvents: deadEvents,
  };
}

/** The memory a stored item holds (undefined: no such item). */
export const memoryOf = (item: Item | undefined): Memory | undefined => (item ? memoryItem.read(item) : undefined);

export class MemoryRepository implements MemoryStore {
  constructor(private readonly table: Table) {}

  async create(memory: Memory): Promise<void> {
    const order = byCreation(memory.createdAt, memory.id);
    const listing = {
      gsi1pk: keys.memoriesOf(memory.accountId),
      gsi1sk: order,
      gsi2pk: keys.memoriesOfType(memory.accountId, memory.memoryType),
      gsi2sk: order,
    };
    await this.table.create(itemOf(memoryItem, { ...keys.memory(memory.accountId, memory.id), ...listing }, memory));
  }

  async get(accountId: string, id: string): Promise<Memory | undefined> {
    return memoryOf(await this.table.get(keys.memory(accountId, id)));
  }

  async list(accountId: string, memoryType: MemoryType | undefined, page: PageRequest): Promise<Page<Memory>> {
    const query = memoryType
      ? { index: 'gsi2' as const, partition: keys.memoriesOfType(accountId, memoryType) }
      : { index: 'gsi1' as const, partition: keys.memoriesOf(accountId) };
    const result = await this.table.queryPage({ ...query, scope: `memories|${query.partition}`, page });
    return { ...result, items: readAll(memoryItem, result.items) };
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<Memory>,
    condition?: { unlessStep?: MemoryStep[]; currentJobId?: string | null },
  ): Promise<Memory | undefined> {
    const item = await this.table.update(keys.memory(accountId, id), memoryItem.changes(changes), conditionOf(condition));
    return item ? memoryItem.read(item) : undefined;
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

  async excludeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void> {
    if (sources.length === 0) return;
    await this.table.apply(keys.memory(accountId, id), {
      expression: 'ADD excludedFileIds :sources',
      names: {},
      values: { ':sources': new Set(sources.map(sourceIdOf)) },
    });
  }

  async includeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void> {
    if (sources.length === 0) return;
    await this.table.apply(keys.memory(accountId, id), {
      expression: 'DELETE excludedFileIds :sources',
      names: {},
      values: { ':sources': new Set(sources.map(sourceIdOf)) },
    });
  }

  async commitIndexVersion(
    accountId: string,
    id: string,
    publication: { expectedVersion: number; changes: Partial<Memory>; excludedBuilt: string[] },
  ): Promise<Memory | undefined> {
    const names: Record<string, string> = { '#version': 'indexVersion' };
    const values: Record<string, unknown> = { ':expected': publication.expectedVersion };
    const assignments = Object.entries(memoryItem.changes(publication.changes)).map(([field, value], i) => {
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
    return item ? memoryItem.read(item) : undefined;
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
