/**
 * A session's summary as stored beside its gold artefacts (object-keys.ts): the answer of
 * `GET /sessions/summary/{id}` (small, read by the API) and the state the next update starts from (read
 * and written by the worker alone). ingest/session-summary.ts writes both, use-cases/session-summaries.ts
 * reads the first. A deleted session's summary and state are deleted (`deleteStoredSummary`).
 */
import { summaryStateFromJson, summaryStateToJson, type SummaryState } from '../../engine';
import { objectKeys } from '../object-keys';
import type { ObjectStore } from '../ports';

export interface StoredSummary {
  summary: string;
  keyPoints: string[];
  /** Messages the summary covers. */
  messageCount: number;
  updatedAt: string;
  /** How the summary was made: `model` by the configured answer model, else `extractive`. */
  method: 'extractive' | 'model';
}

export interface StoredSummaryState {
  state: SummaryState;
  /** Ids of the messages the last update took in: a redelivered update does not count them twice. */
  lastBatch: string[];
  /** The model's last summary, which the next model call revises. */
  model?: { summary: string; keyPoints: string[] };
}

export function encodeSummary(summary: StoredSummary): string {
  return JSON.stringify(summary);
}

export function decodeSummary(bytes: Uint8Array): StoredSummary {
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<StoredSummary>;
  return {
    summary: typeof value.summary === 'string' ? value.summary : '',
    keyPoints: Array.isArray(value.keyPoints) ? value.keyPoints.filter((point) => typeof point === 'string') : [],
    messageCount: typeof value.messageCount === 'number' ? value.messageCount : 0,
    updatedAt: typeof value.updatedAt === 'string' ? value.updatedAt : '',
    method: value.method === 'model' ? 'model' : 'extractive',
  };
}

export function encodeSummaryState(stored: StoredSummaryState): string {
  return JSON.stringify({ ...stored, state: summaryStateToJson(stored.state) });
}

export function decodeSummaryState(bytes: Uint8Array): StoredSummaryState {
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as {
    state: unknown;
    lastBatch?: unknown;
    model?: StoredSummaryState['model'];
  };
  const lastBatch = Array.isArray(value.lastBatch) ? value.lastBatch.filter((id): id is string => typeof id === 'string') : [];
  return { state: summaryStateFromJson(value.state), lastBatch, ...(value.model ? { model: value.model } : {}) };
}

/** Deletes the session's summary and the state its updates start from (the session was deleted). */
export async function deleteStoredSummary(objects: Pick<ObjectStore, 'deleteMany'>, accountId: string, sessionId: string): Promise<void> {
  await objects.deleteMany([objectKeys.sessionSummary(accountId, sessionId), objectKeys.sessionSummaryState(accountId, sessionId)]);
}
