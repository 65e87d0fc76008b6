/**
 * The ingestion worker: an SQS batch handler (partial batch failures reported, so one failing record is
 * retried alone). The same handler runs on Lambda and behind the local runtime's queue pump.
 *
 * Each batch has its own BatchProcessor: the processor keeps its batch's records and failures, and the
 * local runtime runs several batches at once in one process. A failed record comes back after a short,
 * growing delay (KMEM_WORK_RETRY_SECONDS, doubling per try, at most 15 minutes), not after a whole
 * visibility timeout.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { createContainer } from '../adapters/container';
import { ConfigError, functionConfig } from '../config';
import { logger, metrics, tracer } from '../observability';
import { composeWorkerDeps } from './deps';
import { batchErasureCheck, type ErasureCheck, parseWork, runWork, type WorkerDeps } from './dispatch';

const MAX_RETRY_SECONDS = 900;

/** Seconds before try `attempt + 1` of a record whose try `attempt` failed: `first`, doubling, capped. */
export function retryDelaySeconds(attempt: number, first: number): number {
  return Math.min(MAX_RETRY_SECONDS, first * 2 ** Math.max(0, Math.min(attempt - 1, 20)));
}

/** The worker handler over `deps`, composed on the first record (and again after a try that threw). */
export function createWorkerHandler(deps: () => WorkerDeps) {
  let composed: WorkerDeps | undefined;
  const ready = (): WorkerDeps => (composed ??= composeLoudly(deps));
  const handleBatch = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    // the batch's records share one erasure check (each account read once), made with the deps of its first record
    let erasing: ErasureCheck | undefined;
    const erasingOf = (deps: WorkerDeps): ErasureCheck => (erasing ??= batchErasureCheck(deps));
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(ready, record, erasingOf), processor, {
      context,
      throwOnFullBatchFailure: false,
    });
  };
  return middy<SQSEvent, SQSBatchResponse>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(logMetrics(metrics))
    .handler(handleBatch);
}

async function handleRecord(ready: () => WorkerDeps, record: SQSRecord, erasingOf: (deps: WorkerDeps) => ErasureCheck): Promise<void> {
  const message = parseWork(record.body);
  if (!message) return;
  const attempt = Number(record.attributes.ApproximateReceiveCount ?? '1');
  const deps = ready();
  try {
    await runWork(deps, message, { attempt, workId: record.messageId, erasing: erasingOf(deps) });
  } catch (error) {
    await retryLater(deps, record, attempt);
    throw error;
  }
}

async function retryLater(deps: WorkerDeps, record: SQSRecord, attempt: number): Promise<void> {
  const seconds = retryDelaySeconds(attempt, deps.config.work.retrySeconds);
  try {
    await deps.queue.retryIn(record.receiptHandle, seconds);
  } catch (error) {
    // the record still comes back, after the queue's visibility timeout
    logger.warn('could not shorten the retry delay of a failed record', { messageId: record.messageId, error: error as Error });
  }
}

/** A function started without its settings says which, then fails the record. */
function composeLoudly(deps: () => WorkerDeps): WorkerDeps {
  try {
    return deps();
  } catch (error) {
    if (error instanceof ConfigError) logger.error('function settings missing or invalid', { error });
    throw error;
  }
}

/** The deployed worker: deps from its own settings (`FUNCTION_SETTINGS.worker`), SQS for work. */
export const handler = createWorkerHandler(() => composeWorkerDeps(createContainer(functionConfig('worker'))));
