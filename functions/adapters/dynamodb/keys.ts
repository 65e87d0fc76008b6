/**
 * Every key of the single table, composed here and nowhere else (docs/data-model.md lists the access
 * patterns these serve). Attributes are generic: pk/sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, gsi3pk/gsi3sk.
 *
 * Every tenant key starts with `A#<accountId>#`, so no query built from these functions can cross
 * accounts. The only keys without an account prefix are the global lookups an unauthenticated request
 * needs (API keys, account names) and system items.
 */

import { createHash } from 'node:crypto';

export interface TableKey {
  pk: string;
  sk: string;
}

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3';

export const INDEX_NAMES: readonly IndexName[] = ['gsi1', 'gsi2', 'gsi3'];

const tenant = (accountId: string): string => `A#${accountId}`;

export const GRAPH_NODE_PREFIX = 'NODE#';
export const GRAPH_EDGE_PREFIX = 'EDGE#';
/** Sort keys of the parts of a job's file list (in the job's partition). */
export const JOB_FILES_PREFIX = 'FILES#';

/** Sort key of every listing: creation time, then id, so the order is stable and total. */
export const byCreation = (createdAt: string, id: string): string => `${createdAt}#${id}`;

/**
 * Sort key of message listings: creation time, then the place in the session's writing order (so turns
 * of equal time keep the order they were written in), then id. Messages written before sequences existed
 * have none and sort by id among their equals, as before.
 */
export const byCreationAndSequence = (createdAt: string, sequence: number | undefined, id: string): string =>
  sequence === undefined ? byCreation(createdAt, id) : `${createdAt}#${String(sequence).padStart(12, '0')}#${id}`;

export const keys = {
  // ---- global lookups and system items --------------------------------------------------------
  system: (name: string): TableKey => ({ pk: `SYSTEM#${name}`, sk: 'SYSTEM' }),
  apiKey: (lookupId: string): TableKey => ({ pk: `KEY#${lookupId}`, sk: 'KEY' }),
  accountName: (name: string): TableKey => ({ pk: `ACCOUNTNAME#${name}`, sk: 'ACCOUNTNAME' }),
  /** gsi1 lists an account's API keys in creation order. */
  apiKeysOf: (accountId: string): string => `${tenant(accountId)}#KEYS`,

  /** The start of every key of the account's items (an account's erasure finds them by it). */
  tenantPrefix: (accountId: string): string => `${tenant(accountId)}#`,

  // ---- account: profile, token budget, webhook secret -----------------------------------------
  account: (accountId: string): TableKey => ({ pk: `${tenant(accountId)}#ACCOUNT`, sk: 'ACCOUNT' }),

  // ---- users ---------------------------------------------------------------------------------
  user: (accountId: string, id: string): TableKey => ({ pk: `${tenant(accountId)}#USER#${id}`, sk: 'USER' }),
  usersOf: (accountId: string): string => `${tenant(accountId)}#USERS`,

  // ---- sessions ------------------------------------------------------------------------------
  session: (accountId: string, id: string): TableKey => ({
    pk: `${tenant(accountId)}#SESSION#${id}`,
    sk: 'SESSION',
  }),
  sessionsOf: (accountId: string): string => `${tenant(accountId)}#SESSIONS`,

  // ---- messages (gsi1: all, gsi2: by session, gsi3: by customer; role is a filter) -------------
  message: (accountId: string, id: string): TableKey => ({
    pk: `${tenant(accountId)}#MESSAGE#${id}`,
    sk: 'MESSAGE',
  }),
  messagesOf: (accountId: string): string => `${tenant(accountId)}#MESSAGES`,
  messagesOfSession: (accountId: string, sessionId: string): string => `${tenant(accountId)}#SESSION#${sessionId}#MESSAGES`,
  messagesOfCustomer: (accountId: string, customerUserId: string): string => `${tenant(accountId)}#CUSTOMER#${customerUserId}#MESSAGES`,

  /** The account's message index: where it is published (`INDEX`), and its pending changes and lease (`SYNC`). */
  messageIndex: (accountId: string): TableKey => ({ pk: `${tenant(accountId)}#MESSAGEINDEX`, sk: 'INDEX' }),
  messageIndexSync: (accountId: string): TableKey => ({ pk: `${tenant(accountId)}#MESSAGEINDEX`, sk: 'SYNC' }),
  /** A session summary's pending messages and its update lease (the messages' ids as the pending entries). */
  sessionSummarySync: (accountId: string, sessionId: string): TableKey => ({
    pk: `${tenant(accountId)}#SESSION#${sessionId}#SUMMARY`,
    sk: 'SYNC',
  }),

  // ---- uploads: keys handed out by POST /files/upload, checked by files/create ------------------
  upload: (accountId: string, key: string): TableKey => ({ pk: `${tenant(accountId)}#UPLOAD#${key}`, sk: 'UPLOAD' }),

  // ---- files (gsi1: all, gsi2: by category; hidden children under their parent) ----------------
  file: (accountId: string, id: string): TableKey => ({ pk: `${tenant(accountId)}#FILE#${id}`, sk: 'FILE' }),
  filesOf: (accountId: string): string => `${tenant(accountId)}#FILES`,
  filesOfCategory: (accountId: string, category: string): string => `${tenant(accountId)}#FILES#${category}`,
  childFilesOf: (accountId: string, parentFileId: string): string => `${tenant(accountId)}#FILE#${parentFileId}#CHILDREN`,
  /** gsi3 of top-level files with a sourceKey: one file by its exact source, or an import's files by prefix. */
  filesBySource: (accountId: string): string => `${tenant(accountId)}#SOURCES`,
  /** The version of the account's file source fields (fileType, sourceKey, metadata): a counter every write of them adds to. */
  fileSourceVersion: (accountId: string): TableKey => ({ pk: `${tenant(accountId)}#FILESOURCES`, sk: 'VERSION' }),
  /** A sourceKey as a sort key: itself, or (past 900 bytes) its first 800 bytes then `#~` and its SHA-256. */
  sourceSortKey: (sourceKey: string): string => {
    const bytes = Buffer.from(sourceKey, 'utf8');
    if (bytes.length <= 900) return sourceKey;
    const head = bytes
      .subarray(0, 800)
      .toString('utf8')
      .replace(/\uFFFD+$/, '');
    return `${head}#~${createHash('sha256').update(sourceKey).digest('hex')}`;
  },

  // ---- bulk imports (one item each, read by id) ------------------------------------------------
  fileImport: (accountId: string, importId: string): TableKey => ({
    pk: `${tenant(accountId)}#IMPORT#${importId}`,
    sk: 'IMPORT',
  }),

  // ---- memories (gsi1: all, gsi2: by memoryType) --------------------------------------------
  memory: (accountId: string, id: string): TableKey => ({ pk: `${tenant(accountId)}#MEMORY#${id}`, sk: 'MEMORY' }),
  memoriesOf: (accountId: string): string => `${tenant(accountId)}#MEMORIES`,
  memoriesOfType: (accountId: string, memoryType: string): string => `${tenant(accountId)}#MEMORIES#${memoryType}`,

  /** Memory-file link: under the memory (files of a memory), gsi2 under the file (memories of a file). */
  memoryFile: (accountId: string, memoryId: string, fileId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}`,
    sk: `FILE#${fileId}`,
  }),
  memoriesOfFile: (accountId: string, fileId: string): string => `${tenant(accountId)}#FILE#${fileId}#MEMORIES`,

  /** Memory-session link, likewise in both directions. */
  memorySession: (accountId: string, memoryId: string, sessionId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}`,
    sk: `SESSION#${sessionId}`,
  }),
  memoriesOfSession: (accountId: string, sessionId: string): string => `${tenant(accountId)}#SESSION#${sessionId}#MEMORIES`,

  /** A memory's pending conversation changes and its conversation build lease. */
  conversationSync: (accountId: string, memoryId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}`,
    sk: 'SYNC',
  }),

  /** Everything a memory owns shares its partition; `memoryPartition` + begins_with(sk) selects a kind. */
  memoryPartition: (accountId: string, memoryId: string): string => `${tenant(accountId)}#MEMORY#${memoryId}`,

  // ---- ingestion jobs and their budget reservations ------------------------------------------
  job: (accountId: string, jobId: string): TableKey => ({ pk: `${tenant(accountId)}#JOB#${jobId}`, sk: 'JOB' }),
  /** Part `part` of a job's file list, beside the job (a list of thousands of ids outgrows one item). */
  jobFiles: (accountId: string, jobId: string, part: number): TableKey => ({
    pk: `${tenant(accountId)}#JOB#${jobId}`,
    sk: `${JOB_FILES_PREFIX}${String(part).padStart(5, '0')}`,
  }),
  jobsOfMemory: (accountId: string, memoryId: string): string => `${tenant(accountId)}#MEMORY#${memoryId}#JOBS`,

  // ---- graph items (per graph memory: nodes, edges under their source node, and their state) -----
  graphPartition: (accountId: string, memoryId: string): string => `${tenant(accountId)}#MEMORY#${memoryId}#GRAPH`,
  graphNode: (accountId: string, memoryId: string, entityId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}#GRAPH`,
    sk: `${GRAPH_NODE_PREFIX}${entityId}`,
  }),
  /** gsi1 lists a memory's nodes in id order, for paging. */
  graphNodesOf: (accountId: string, memoryId: string): string => `${tenant(accountId)}#MEMORY#${memoryId}#NODES`,
  graphEdge: (accountId: string, memoryId: string, sourceId: string, edgeId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}#GRAPH`,
    sk: `${GRAPH_EDGE_PREFIX}${sourceId}#${edgeId}`,
  }),
  graphState: (accountId: string, memoryId: string): TableKey => ({
    pk: `${tenant(accountId)}#MEMORY#${memoryId}#GRAPH`,
    sk: 'STATE',
  }),

  // ---- memory exports (one item each, read by id) ---------------------------------------------
  memoryExport: (accountId: string, exportId: string): TableKey => ({ pk: `${tenant(accountId)}#EXPORT#${exportId}`, sk: 'EXPORT' }),

  // ---- webhook outbox -----------------------------------------------------------------------
  webhookDelivery: (accountId: string, eventId: string): TableKey => ({
    pk: `${tenant(accountId)}#WEBHOOK#${eventId}`,
    sk: 'DELIVERY',
  }),

  // ---- per-account request counts, one item per account and minute (expiring) --------------------
  requestWindow: (accountId: string, window: number): TableKey => ({ pk: `${tenant(accountId)}#RATE#${window}`, sk: 'RATE' }),
} as const;
