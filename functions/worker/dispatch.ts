/**
 * Runs one work message: parse it, call its use case, and on the last try before the dead-letter queue
 * give the work up cleanly (the file or ingestion is marked failed) instead of leaving it waiting.
 */
import type { Container } from '../adapters/container';
import type { IndexingSettings } from '../core/ingest/index-build';
import { giveUp } from '../core/ingest/give-up';
import { ingestMemory } from '../core/ingest/ingest-memory';
import type { ContentExtractor, ImportReader, RemoteFetcher, SiteReader } from '../core/ingest/ports';
import { failImport, runImport } from '../core/ingest/run-import';
import { queueDueResyncs, resyncWebFile } from '../core/ingest/resync-web';
import { processFile } from '../core/ingest/process-file';
import { writePublishedGraphItems } from '../core/ingest/graph-items-sync';
import { reindexMemory } from '../core/ingest/reindex-memory';
import { mergeMemory } from '../core/ingest/merge-memory';
import { syncConversations } from '../core/ingest/conversation-sync';
import { syncMessageIndex } from '../core/ingest/message-index';
import { mergeMessageIndex } from '../core/ingest/message-merge';
import { updateSessionSummary } from '../core/ingest/session-summary';
import type { SessionSummarizer } from '../core/summaries/ports';
import type { VectorTierSetup } from '../core/vector-tier/ports';
import { refreshMemory } from '../core/use-cases/ingestion';
import { exportMemory, giveUpExport } from '../core/ingest/export-memory';
import { giveUpRestore, restoreMemory } from '../core/ingest/restore-memory';
import { retireBuilds } from '../core/ingest/retire-builds';
import { deliverWebhook } from '../core/use-cases/webhooks';
import type { WorkMessage } from '../core/work';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metrics } from '../observability';
import { workMessageSchema } from './work-schema';

export type WorkerDeps = Container & {
  indexing: IndexingSettings;
  extractor: ContentExtractor;
  fetcher: RemoteFetcher;
  site: SiteReader;
  importReader: ImportReader;
  /** The answer model as a session summarizer, when one is configured. */
  summaries: { model: () => SessionSummarizer | null };
  /** The vector tier of large memories, when the stage turns it on (docs/scale.md). */
  vectors?: VectorTierSetup;
};

const WORK_GAVE_UP = 'it failed repeatedly because of an internal error; start it again';
const IMPORT_GAVE_UP = 'the import failed repeatedly because of an internal error; start it again (what it imported stays)';

/** A message body that is not a work message: it can never succeed, so it is logged and dropped. */
export function parseWork(body: string): WorkMessage | undefined {
  const parsed = workMessageSchema.safeParse(parseJson(body));
  if (parsed.success) return parsed.data;
  logger.error('dropping a message that is not work', { body: body.slice(0, 500) });
  return undefined;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined; // not JSON: the schema check refuses it
  }
}

/** One delivery of a work message: its try number and the queue's id of it (the same on every try). */
export interface Delivery {
  attempt: number;
  /** The queue message's id; a conversation build holds its memory's lease under it. */
  workId: string;
  /** The check its batch shares (`batchErasureCheck`); without one, the delivery reads the account itself. */
  erasing?: ErasureCheck;
}

/** Whether an account is being erased (`kmem accounts delete`): its work would write back what is being deleted. */
export type ErasureCheck = (accountId: string) => Promise<boolean>;

/**
 * The erasure check of one batch: the first of its records of an account reads the account, the others share
 * that read. The batch's records start together (Powertools' BatchProcessor runs them in parallel), so each
 * is checked as of its start, as when each read the account itself: one read per account a batch, not per
 * message.
 */
export function batchErasureCheck(deps: WorkerDeps): ErasureCheck {
  const reads = new Map<string, Promise<boolean>>();
  return (accountId) => {
    let read = reads.get(accountId);
    if (!read) reads.set(accountId, (read = accountBeingDeleted(deps, accountId)));
    return read;
  };
}

/**
 * Runs a work message. A failure is logged at warn with its kind, ids, attempt and error, and counted by
 * kind; it is thrown again for a retry, except on the last try, where the work is given up cleanly.
 */
export async function runWork(deps: WorkerDeps, message: WorkMessage, delivery: Delivery): Promise<void> {
  metrics.addMetric('WorkItems', MetricUnit.Count, 1);
  try {
    await perform(deps, message, delivery);
  } catch (error) {
    const last = delivery.attempt >= deps.config.work.maxAttempts;
    countFailure(message.kind);
    const { kind, ...ids } = message;
    logger.warn(last ? 'work failed on its last try: giving it up' : 'work failed: it will be retried', {
      ...{ kind, ids, attempt: delivery.attempt, maxAttempts: deps.config.work.maxAttempts },
      error: error as Error,
    });
    if (!last) throw error;
    if (message.kind === 'file.import') await failImport(deps, message.accountId, message.importId, IMPORT_GAVE_UP);
    else if (message.kind === 'memory.export') await giveUpExport(deps, message, WORK_GAVE_UP);
    else if (message.kind === 'memory.restore') await giveUpRestore(deps, message, WORK_GAVE_UP);
    else await giveUp(deps, message, error);
  }
}

async function accountBeingDeleted(deps: WorkerDeps, accountId: string): Promise<boolean> {
  return (await deps.accounts.get(accountId))?.deletingAt !== undefined;
}

/** WorkFailures in all (for alarms), and by kind as its own metric (the batch's shared dimensions stay as they are). */
function countFailure(kind: WorkMessage['kind']): void {
  metrics.addMetric('WorkFailures', MetricUnit.Count, 1);
  const metric = metrics.singleMetric();
  metric.addDimension('kind', kind);
  metric.addMetric('WorkFailures', MetricUnit.Count, 1);
}

async function perform(deps: WorkerDeps, message: WorkMessage, delivery: Delivery): Promise<void> {
  const erasing = delivery.erasing ?? ((accountId: string) => accountBeingDeleted(deps, accountId));
  if ('accountId' in message && (await erasing(message.accountId))) {
    logger.info('dropping work of an account being deleted', { kind: message.kind, accountId: message.accountId });
    return;
  }
  switch (message.kind) {
    case 'file.process': {
      const outcome = await processFile(deps, message.accountId, message.fileId);
      logger.info('file processed', { fileId: message.fileId, outcome });
      return;
    }
    case 'memory.ingest':
      return ingestMemory(deps, message);
    case 'memory.reindex':
      return reindexMemory(deps, message);
    case 'memory.refresh':
      return refreshMemory(deps, message);
    case 'file.import':
      return runImport(deps, message);
    case 'file.resync':
      return resyncWebFile(deps, message);
    case 'web.resync-due': {
      logger.info('web sources queued for re-sync', { queued: await queueDueResyncs(deps) });
      return;
    }
    case 'memory.sync-session': {
      const builds = await syncConversations(deps, message, delivery.workId);
      if (builds > 0) logger.info('conversations synced', { memoryId: message.memoryId, builds });
      return;
    }
    case 'messages.sync':
      await syncMessageIndex(deps, message, delivery.workId);
      return;
    case 'session.summarize':
      await updateSessionSummary(deps, message, delivery.workId);
      return;
    case 'memory.merge': {
      const merges = await mergeMemory(deps, message);
      if (merges > 0) logger.info('index segments merged', { memoryId: message.memoryId, merges });
      return;
    }
    case 'messages.merge': {
      const merges = await mergeMessageIndex(deps, message);
      if (merges > 0) logger.info('message index segments merged', { accountId: message.accountId, merges });
      return;
    }
    case 'memory.graph-items':
      return writePublishedGraphItems(deps, message.accountId, message.memoryId);
    case 'memory.export':
      return exportMemory(deps, message);
    case 'index.retire':
      return retireBuilds(deps, message);
    case 'memory.restore':
      return restoreMemory(deps, message);
    case 'webhook.deliver': {
      const result = await deliverWebhook(deps, message);
      logger.info('webhook delivery', { eventId: message.eventId, ...result });
      return;
    }
  }
}
