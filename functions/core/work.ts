/**
 * The messages of the work queue: what the API asks the worker to do. One queue carries them all;
 * functions/worker dispatches on `kind`. Each is idempotent: doing it twice leaves what doing it once does.
 */
export type WorkMessage =
  | { kind: 'file.process'; accountId: string; fileId: string }
  | { kind: 'memory.ingest'; accountId: string; memoryId: string; jobId: string }
  | { kind: 'memory.reindex'; accountId: string; memoryId: string }
  /** Start an ingestion of these changed files (all waiting files when absent) once the memory is free. */
  | { kind: 'memory.refresh'; accountId: string; memoryId: string; fileIds?: string[]; charge?: Record<string, number> }
  | { kind: 'file.import'; accountId: string; importId: string }
  | { kind: 'file.resync'; accountId: string; fileId: string }
  /** The stage's schedule (EventBridge): every ready web source of every account is synced again. */
  | { kind: 'web.resync-due' }
  | { kind: 'memory.sync-session'; accountId: string; memoryId: string; sessionId: string }
  | { kind: 'messages.sync'; accountId: string; sessionId: string }
  /** Bring the session's summary up to date with its pending messages (core/ingest/session-summary.ts). */
  | { kind: 'session.summarize'; accountId: string; sessionId: string }
  /** Merge segments of the memory's index as the merge policy says (docs/segments.md); nothing when none are due. */
  | { kind: 'memory.merge'; accountId: string; memoryId: string }
  /** Merge segments of the account's message index as the merge policy says (core/ingest/message-merge.ts). */
  | { kind: 'messages.merge'; accountId: string }
  | { kind: 'memory.graph-items'; accountId: string; memoryId: string }
  | { kind: 'webhook.deliver'; accountId: string; eventId: string }
  /** Delete the index builds before `version` (a memory's, or the account's message index without memoryId): erasure. */
  | { kind: 'index.retire'; accountId: string; memoryId?: string; version: number; prefix?: string }
  /** Write a memory into an export archive (POST /memories/export/{id}). */
  | { kind: 'memory.export'; accountId: string; exportId: string }
  /** Fill a new memory from an export archive (POST /memories/restore). */
  | { kind: 'memory.restore'; accountId: string; memoryId: string; archiveKey: string };
