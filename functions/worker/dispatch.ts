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
import { resyncWebFile } from '../core/ingest/resync-web';
import { processFile } from '../core/ingest/process-file';
import { writePublishedGraphItems } from '../core/ingest/graph-items-sync';
import { reindexMemory } from '../core/ingest/reindex-memory';
import { syncSession } from '../core/ingest/sync-session';
import { refreshMemory } from '../core/use-cases/ingestion';
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
};

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

export async function runWork(deps: WorkerDeps, message: WorkMessage, attempt: number): Promise<void> {
  metrics.addMetric('WorkItems', MetricUnit.Count, 1);
  try {
    await perform(deps, message);
  } catch (error) {
    metrics.addMetric('WorkFailures', MetricUnit.Count, 1);
    if (attempt < deps.config.work.maxAttempts) throw error;
    logger.error('giving work up after its last try', { work: message, error: error as Error });
    if (message.kind === 'file.import') await failImport(deps, message.accountId, message.importId, IMPORT_GAVE_UP);
    else await giveUp(deps, message, error);
  }
}

async function perform(deps: WorkerDeps, message: WorkMessage): Promise<void> {
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
    case 'memory.sync-session':
      return syncSession(deps, message);
    case 'memory.graph-items':
      return writePublishedGraphItems(deps, message.accountId, message.memoryId);
    case 'webhook.deliver': {
      const result = await deliverWebhook(deps, message);
      logger.info('webhook delivery', { eventId: message.eventId, ...result });
      return;
    }
  }
}
