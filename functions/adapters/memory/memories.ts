/** Memories, their links to files and sessions, and their ingestion jobs, in memory (the semantics of their DynamoDB repositories). */
import { ConflictError } from '../../core/errors';
import {
  type IngestionJob,
  type JobSummary,
  type Memory,
  type MemoryFileLink,
  type MemorySessionLink,
  type MemoryStep,
  type MemoryType,
  type Page,
  type PageRequest,
  type SourceRef,
  sourceIdOf,
  type WebhookDeliveryStatus,
} from '../../core/model';
import type { JobStore, LinkStore, MemoryStore, SessionLinkStore } from '../../core/ports';
import { AccountRecords, byCreation, compare, definedChanges, foundById, pageOf } from './records';

export class MemoryMemoryStore implements MemoryStore {
  private readonly memories = new AccountRecords<Memory>();

  async create(memory: Memory): Promise<void> {
    this.memories.create(memory.accountId, memory.id, memory);
  }

  async get(accountId: string, id: string): Promise<Memory | undefined> {
    return this.memories.get(accountId, id);
  }

  async list(accountId: string, memoryType: MemoryType | undefined, page: PageRequest): Promise<Page<Memory>> {
    const listed = this.memories.values(accountId).filter((memory) => memoryType === undefined || memory.memoryType === memoryType);
    return pageOf(listed, byCreation, `memories|${accountId}|${memoryType ?? ''}`, page);
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<Memory>,
    condition?: { unlessStep?: MemoryStep[]; currentJobId?: string | null },
  ): Promise<Memory | undefined> {
    return this.memories.update(
      accountId,
      id,
      (memory) => ({ ...memory, ...definedChanges(changes) }),
      (memory) =>
        !condition?.unlessStep?.includes(memory.step) &&
        (condition?.currentJobId === undefined || memory.currentJobId === condition.currentJobId),
    );
  }

  async delete(accountId: string, id: string): Promise<void> {
    this.memories.delete(accountId, id);
  }

  async recordWebhookDelivery(accountId: string, id: string, status: Omit<WebhookDeliveryStatus, 'deadEvents'>): Promise<void> {
    this.memories.update(accountId, id, (memory) => {
      const deadEvents = (memory.webhookDelivery?.deadEvents ?? 0) + (status.outcome === 'dead' ? 1 : 0);
      return { ...memory, webhookDelivery: { ...status, deadEvents } };
    });
  }

  async excludeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void> {
    const excluded = sources.map(sourceIdOf);
    this.memories.update(accountId, id, (memory) => ({
      ...memory,
      excludedFileIds: [...new Set([...memory.excludedFileIds, ...excluded])],
    }));
  }

  async includeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void> {
    const included = new Set(sources.map(sourceIdOf));
    this.memories.update(accountId, id, (memory) => ({
      ...memory,
      excludedFileIds: memory.excludedFileIds.filter((source) => !included.has(source)),
    }));
  }

  async commitIndexVersion(
    accountId: string,
    id: string,
    publication: { expectedVersion: number; changes: Partial<Memory>; excludedBuilt: string[] },
  ): Promise<Memory | undefined> {
    const built = new Set(publication.excludedBuilt);
    return this.memories.update(
      accountId,
      id,
      (memory) => {
        const changed = { ...memory, ...definedChanges(publication.changes) };
        return { ...changed, excludedFileIds: changed.excludedFileIds.filter((source) => !built.has(source)) };
      },
      (memory) => memory.indexVersion === publication.expectedVersion,
    );
  }
}

/** A memory's link records, keyed by memory and the linked id (a file's or a session's). */
const linkKey = (memoryId: string, linkedId: string) => `${memoryId}\u0000${linkedId}`;

export class MemoryLinkStore implements LinkStore {
  private readonly links = new AccountRecords<MemoryFileLink>();

  async create(link: MemoryFileLink): Promise<void> {
    this.links.create(link.accountId, linkKey(link.memoryId, link.fileId), link);
  }

  async createMany(links: readonly MemoryFileLink[]): Promise<void> {
    for (const link of links) this.links.put(link.accountId, linkKey(link.memoryId, link.fileId), link);
  }

  async get(accountId: string, memoryId: string, fileId: string): Promise<MemoryFileLink | undefined> {
    return this.links.get(accountId, linkKey(memoryId, fileId));
  }

  async getMany(accountId: string, memoryId: string, fileIds: readonly string[]): Promise<Map<string, MemoryFileLink>> {
    return foundById(fileIds, (fileId) => this.links.get(accountId, linkKey(memoryId, fileId)));
  }

  /** In file id order. */
  async listByMemory(accountId: string, memoryId: string): Promise<MemoryFileLink[]> {
    return this.links.values(accountId).filter((link) => link.memoryId === memoryId);
  }

  /** In memory id order. */
  async listByFile(accountId: string, fileId: string): Promise<MemoryFileLink[]> {
    return this.links
      .values(accountId)
      .filter((link) => link.fileId === fileId)
      .sort((a, b) => compare(a.memoryId, b.memoryId));
  }

  async markIngested(accountId: string, memoryId: string, fileId: string, at: string, seenUpdatedAt?: string): Promise<boolean> {
    try {
      this.links.update(
        accountId,
        linkKey(memoryId, fileId),
        (link) => ({ ...link, ingestedAt: at, updatedAt: at }),
        (link) => seenUpdatedAt === undefined || link.updatedAt === seenUpdatedAt,
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return false; // changed since the ingestion read it: it waits again
    }
  }

  async markChanged(accountId: string, memoryId: string, fileId: string, at: string): Promise<void> {
    this.links.update(accountId, linkKey(memoryId, fileId), (link) => ({ ...link, ingestedAt: null, updatedAt: at }));
  }

  async delete(accountId: string, memoryId: string, fileId: string): Promise<void> {
    this.links.delete(accountId, linkKey(memoryId, fileId));
  }

  async deleteMany(accountId: string, links: ReadonlyArray<Pick<MemoryFileLink, 'memoryId' | 'fileId'>>): Promise<void> {
    for (const link of links) this.links.delete(accountId, linkKey(link.memoryId, link.fileId));
  }
}

export class MemorySessionLinkStore implements SessionLinkStore {
  private readonly links = new AccountRecords<MemorySessionLink>();

  async create(link: MemorySessionLink): Promise<void> {
    this.links.create(link.accountId, linkKey(link.memoryId, link.sessionId), link);
  }

  async get(accountId: string, memoryId: string, sessionId: string): Promise<MemorySessionLink | undefined> {
    return this.links.get(accountId, linkKey(memoryId, sessionId));
  }

  /** In session id order. */
  async listByMemory(accountId: string, memoryId: string): Promise<MemorySessionLink[]> {
    return this.links.values(accountId).filter((link) => link.memoryId === memoryId);
  }

  /** In memory id order. */
  async listBySession(accountId: string, sessionId: string): Promise<MemorySessionLink[]> {
    return this.links
      .values(accountId)
      .filter((link) => link.sessionId === sessionId)
      .sort((a, b) => compare(a.memoryId, b.memoryId));
  }

  async delete(accountId: string, memoryId: string, sessionId: string): Promise<void> {
    this.links.delete(accountId, linkKey(memoryId, sessionId));
  }
}

export class MemoryJobStore implements JobStore {
  private readonly jobs = new AccountRecords<IngestionJob>();

  async create(job: IngestionJob): Promise<void> {
    this.jobs.create(job.accountId, job.id, job);
  }

  async get(accountId: string, id: string): Promise<IngestionJob | undefined> {
    return this.jobs.get(accountId, id);
  }

  async update(accountId: string, id: string, changes: Partial<JobSummary>, whenState?: IngestionJob['state'][]): Promise<void> {
    this.jobs.update(
      accountId,
      id,
      (job) => ({ ...job, ...definedChanges(changes) }),
      (job) => !whenState || whenState.includes(job.state),
    );
  }

  /** In creation order, without their file lists. */
  async listByMemory(accountId: string, memoryId: string): Promise<JobSummary[]> {
    return this.jobs
      .values(accountId)
      .filter((job) => job.memoryId === memoryId)
      .sort((a, b) => compare(byCreation(a), byCreation(b)))
      .map(({ fileIds: _fileIds, ...summary }) => summary);
  }

  async delete(accountId: string, id: string): Promise<void> {
    this.jobs.delete(accountId, id);
  }
}
