/**
 * What each endpoint group's function may touch: the one place to widen a group's permissions. Keyed by
 * `Group`, so a group added to the route catalog's type must be given its access here before it compiles.
 */
import type { Group } from '../../functions/http/route-spec';
import type { BucketAccess, TableAccess } from './grants';

/** One group's grants. */
export interface GroupAccess {
  readonly table: TableAccess;
  readonly bucket: BucketAccess;
  /** May send to the ingestion queue. */
  readonly enqueue: boolean;
}

/** Grants per endpoint group (meta only probes the table for `/healthz`). */
export const GROUP_ACCESS: Readonly<Record<Group, GroupAccess>> = {
  meta: { table: 'describe', bucket: 'none', enqueue: false },
  users: { table: 'readWrite', bucket: 'none', enqueue: false },
  // both record conversation changes and ask the worker to build (memory syncs, the message index)
  sessions: { table: 'readWrite', bucket: 'none', enqueue: true },
  // message search reads the account's message index
  messages: { table: 'readWrite', bucket: 'read', enqueue: true },
  memories: { table: 'readWrite', bucket: 'readWrite', enqueue: true },
  files: { table: 'readWrite', bucket: 'readWrite', enqueue: true },
  retrieval: { table: 'read', bucket: 'read', enqueue: false },
  /** MCP tools call the API itself with the caller's key; the function only looks that key up. */
  mcp: { table: 'keyLookup', bucket: 'none', enqueue: false },
};
