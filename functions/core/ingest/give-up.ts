/**
 * What happens to work that failed on every try (the last receive before the dead-letter queue): the file
 * or the ingestion is marked failed with a reason, reservations are refunded and the webhook is told,
 * so nothing waits forever on a message that will not come back.
 */
import type { WorkMessage } from '../work';
import { endJob, type IngestDeps } from './ingest-memory';
import { childSettled } from './hidden-files';
import { TransientProcessingError } from './ports';
import { failFile } from './process-file';
import { emitWebhookEvent } from '../webhooks/outbox';

const REPEATED_FAILURE = 'processing failed repeatedly because of an internal error; try again later';

export async function giveUp(deps: IngestDeps, message: WorkMessage, error: unknown): Promise<void> {
  if (message.kind === 'file.process') {
    const file = await deps.files.get(message.accountId, message.fileId);
    const reason = error instanceof TransientProcessingError ? error.message : REPEATED_FAILURE;
    if (file && (await failFile(deps, file, reason))) await childSettled(deps, file);
  } else if (message.kind === 'memory.ingest') {
    await failIngestion(deps, message);
  }
}

async function failIngestion(deps: IngestDeps, message: Extract<WorkMessage, { kind: 'memory.ingest' }>): Promise<void> {
  const job = await deps.jobs.get(message.accountId, message.jobId);
  if (!job || job.state === 'completed' || job.state === 'failed') return;
  await endJob(deps, job, 'failed', 0);
  const memory = await deps.memories.get(message.accountId, message.memoryId);
  if (!memory || memory.currentJobId !== job.id) return;
  const now = deps.clock.now().toISOString();
  await deps.memories.update(
    job.accountId,
    job.memoryId,
    { step: 'failed', currentJobId: null, lastError: REPEATED_FAILURE, updatedAt: now },
    { currentJobId: job.id },
  );
  await emitWebhookEvent(deps, {
    accountId: job.accountId,
    url: memory.webhookUrl,
    type: 'memory.ingestion.failed',
    data: { memoryID: memory.id, jobID: job.id, error: REPEATED_FAILURE },
    eventId: `${job.id}.ended`,
  });
}
