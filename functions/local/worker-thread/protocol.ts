/** The messages between the local runtime and its worker thread (functions/local/worker-thread). */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Config } from '../../config';
import type { MetricPoint } from '../../core/metrics';

/** What the thread starts with: its module, and the runtime's settings it composes its deps from. */
export interface ThreadData {
  module: string;
  config: Config;
}

/** Runtime to thread. */
export type HostMessage =
  | { kind: 'invoke'; id: number; event: SQSEvent; functionName: string; requestId: string; timeoutMs: number }
  /** The runtime's queue stored a `send` or applied a `retry`. */
  | { kind: 'sent'; id: number; error?: string }
  | { kind: 'close' };

/** Thread to runtime: ready, a batch's answer, a message to queue, a received message's retry delay, closed. */
export type ThreadMessage =
  | { kind: 'ready' }
  | { kind: 'answered'; id: number; response: SQSBatchResponse | undefined; error?: string }
  | { kind: 'send'; id: number; body: unknown; options?: { delaySeconds?: number; groupId?: string } }
  | { kind: 'retry'; id: number; receiptHandle: string; seconds: number }
  /** A point of the metrics port, for the runtime's metrics summary (GET /metrics). */
  | { kind: 'metric'; point: MetricPoint }
  | { kind: 'closed' };
