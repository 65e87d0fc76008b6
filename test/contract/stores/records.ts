/** Records the store contracts write: each with fresh ids, under a fresh account, so runs never meet. */
import { randomUUID } from 'node:crypto';
import type { ContainerStores } from '../../../functions/adapters/container';
import { emptyFile } from '../../../functions/core/files/file-records';
import { newMemory } from '../../../functions/core/use-cases/memories';
import type { FileRecord, IngestionJob, Memory, Message, Session, User } from '../../../functions/core/model';
import type { WebhookDelivery } from '../../../functions/core/webhooks/events';

/** Makes the stores under test: a fresh set each call (a real adapter's may share one table and bucket). */
export type MakeStores = () => ContainerStores;

export const newId = (): string => randomUUID();

/** An ISO time `seconds` after a fixed start, so creation order is the order of `seconds`. */
export const at = (seconds: number): string => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();

export function user(accountId: string, seconds: number, id = newId()): User {
  const now = at(seconds);
  return { id, accountId, firstName: null, lastName: null, email: `${id}@example.com`, phone: null, createdAt: now, updatedAt: now };
}

export function session(accountId: string, id = newId()): Session {
  const now = at(0);
  return { id, accountId, customerUserId: null, metadata: [], createdAt: now, updatedAt: now, deletedAt: null, endedAt: null };
}

export function message(accountId: string, sessionId: string, seconds: number, extra: Partial<Message> = {}): Message {
  const now = at(seconds);
  return {
    id: newId(),
    accountId,
    sessionId,
    role: 'user',
    content: 'hello',
    customerUserId: null,
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

export function file(accountId: string, seconds: number, extra: Partial<FileRecord> = {}): FileRecord {
  return {
    ...emptyFile(accountId, newId(), at(seconds), 'local'),
    name: 'a.txt',
    extension: 'txt',
    fileType: 'text',
    category: 'document',
    ...extra,
  };
}

export function memory(accountId: string, seconds: number, extra: Partial<Memory> = {}): Memory {
  return { ...newMemory({ id: newId(), accountId, now: at(seconds) }, { name: 'm', memoryType: 'vector' }), ...extra };
}

export function job(accountId: string, memoryId: string, seconds: number, fileIds: string[]): IngestionJob {
  const now = at(seconds);
  return {
    id: newId(),
    accountId,
    memoryId,
    fileIds,
    reservedTokens: 100,
    usedTokens: 0,
    state: 'queued',
    reconciled: false,
    createdAt: now,
    updatedAt: now,
  };
}

export function delivery(accountId: string): WebhookDelivery {
  const now = at(0);
  return {
    eventId: newId(),
    accountId,
    url: 'https://example.com/hook',
    event: { id: newId(), type: 'file.ready', createdAt: now, data: { fileID: 'f' } },
    attempts: 0,
    state: 'pending',
    lastError: null,
    lastStatus: null,
    nextAttemptAt: null,
    createdAt: now,
    updatedAt: now,
    deliveredAt: null,
  };
}

/** Every item of a paged listing, following next tokens; also checks walking back with previous tokens gives the same pages. */
export async function walkPages<T>(
  list: (page: {
    limit: number;
    nextToken?: string;
    previousToken?: string;
  }) => Promise<{ items: T[]; nextToken: string | null; previousToken: string | null }>,
  limit: number,
) {
  const pages: T[][] = [];
  let page = await list({ limit });
  pages.push(page.items);
  while (page.nextToken) {
    page = await list({ limit, nextToken: page.nextToken });
    pages.push(page.items);
  }
  const back: T[][] = [];
  while (page.previousToken) {
    page = await list({ limit, previousToken: page.previousToken });
    back.unshift(page.items);
  }
  return { forward: pages, back, first: page };
}
