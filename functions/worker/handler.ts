/**
 * The ingestion worker: an SQS batch handler (partial batch failures reported, so one failing record is
 * retried alone). The same handler runs on Lambda and behind the local runtime's queue pump.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { container } from '../adapters/container';
import { ConfigError } from '../config';
import { logger, metrics, tracer } from '../observability';
import { workerDeps } from './deps';
import { parseWork, runWork } from './dispatch';

const processor = new BatchProcessor(EventType.SQS);

async function handleRecord(record: SQSRecord): Promise<void> {
  const message = parseWork(record.body);
  if (!message) return;
  const attempt = Number(record.attributes.ApproximateReceiveCount ?? '1');
  await runWork(workerDeps(workerContainer()), message, attempt);
}

/** The worker's container; a function started without its settings says which, then fails the record. */
function workerContainer() {
  try {
    return container('worker');
  } catch (error) {
    if (error instanceof ConfigError) logger.error('function settings missing or invalid', { error });
    throw error;
  }
}

async function handleBatch(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  return processPartialResponse(event, handleRecord, processor, { context, throwOnFullBatchFailure: false });
}

export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(captureLambdaHandler(tracer))
  .use(logMetrics(metrics))
  .handler(handleBatch);
