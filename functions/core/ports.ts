/**
 * Ports: the small interfaces the use cases need from the outside world.
 * Adapters (functions/adapters) implement them for DynamoDB, S3 and SQS or the local queue.
 * Every method takes the account id: no port can reach across accounts.
 */
import type {
  Account,
  ApiKeyRecord,
  IngestionJob,
  JobSummary,
  Memory,
  MemoryFileLink,
  MemorySessionLink,
  MemoryStep,
  MemoryType,
  WebhookDeliveryStatus,
  Page,
  PageRequest,
  SourceRef,
  User,
} from './model';
import type { GraphEdge, GraphItemChanges, GraphItems, GraphItemsState, GraphNode } from './graph-items';

export interface AccountStore {
  /** Creates the account and reserves its name; throws ConflictError when the name is taken. */
  create(account: Account): Promise<void>;
  get(accountId: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
  /** Records the lookup id of the key KMEM_API_KEY put on the account. */
  setBootstrapKey(accountId: string, lookupId: string): Promise<void>;
  /** Takes `tokens` from the budget if that many remain; returns the account after, or undefined if short. */
  reserveTokens(accountId: string, tokens: number): Promise<Account | undefined>;
  /** Takes `tokens` from the budget unconditionally (work already done: extraction time). */
  chargeTokens(accountId: string, tokens: number): Promise<void>;
  /** Gives back what a job reserved and did not use, once per job id whatever the redeliveries. */
  refundTokens(accountId: string, tokens: number, jobId: string): Promise<void>;
  /** Forgets a job's refund marker once the job itself records that it was refunded. */
  settleRefund(accountId: string, jobId: string): Promise<void>;
  /** Replaces the `bucket/prefix` pairs the account's S3 imports may read. */
  setImportSources(accountId: string, sources: readonly string[]): Promise<void>;
}

export interface ApiKeyStore {
  /** Throws ConflictError when a key with the same lookup id exists. */
  put(record: ApiKeyRecord): Promise<void>;
  find(lookupId: string): Promise<ApiKeyRecord | undefined>;
  /** The account's keys, oldest first (revoked ones included). */
  listOf(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the account's key revoked; answers the record as it now is, or undefined when the account has no such key. */
  revoke(accountId: string, lookupId: string, at: string): Promise<ApiKeyRecord | undefined>;
}

export interface UserStore {
  /** Throws ConflictError when the id exists. */
  create(user: User): Promise<void>;
  get(accountId: string, id: string): Promise<User | undefined>;
  list(accountId: string, page: PageRequest): Promise<Page<User>>;
  /** Returns false when there was nothing to delete. */
  delete(accountId: string, id: string): Promise<boolean>;
}

/** Counts an account's requests per window. */
export interface RequestCounter {
  /** Adds one request to the account's `window` (the item expires at `expiresAtSeconds`); answers the count so far. */
  count(accountId: string, window: number, expiresAtSeconds: number): Promise<number>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  uuid(): string;
}

/** A durable queue of JSON messages: SQS on AWS, a file-backed queue on the local runtime. */
export interface QueuePort {
  send(body: unknown, options?: { delaySeconds?: number; groupId?: string }): Promise<void>;
}

/** The worker's side of the queue. */
export interface RedeliveryPort {
  /**
   * Makes a received message visible again `seconds` from now (SQS ChangeMessageVisibility): a failed
   * try comes back after a short, growing delay instead of a whole visibility timeout.
   */
  retryIn(receiptHandle: string, seconds: number): Promise<void>;
}

/** A graph memory's graph as table items (functions/core/graph-items.ts), kept up to date by one worker at a time. */
export interface GraphItemStore {
  /**
   * Takes the right to change the items until `untilMs` and answers the state they were in; undefined
   * when another writer holds it. While held, the stored state reads as unknown, so a writer that dies
   * leaves the next one comparing against the items themselves.
   */
  acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<GraphItemsState | undefined>;
  /** Extends the holder's right until `untilMs`; false when the holder no longer has it. */
  renew(accountId: string, memoryId: string, holder: string, untilMs: number): Promise<boolean>;
  /** Gives the right back, recording the state the items are now in. */
  release(accountId: string, memoryId: string, holder: string, state: GraphItemsState): Promise<void>;
  apply(accountId: string, memoryId: string, changes: GraphItemChanges): Promise<void>;
  readAll(accountId: string, memoryId: string): Promise<GraphItems>;
  /** A page of nodes, in id order. */
  pageNodes(accountId: string, memoryId: string, page: PageRequest): Promise<Page<GraphNode>>;
  /** The nodes of these ids that exist, in no order. */
  getNodes(accountId: string, memoryId: string, ids: readonly string[]): Promise<GraphNode[]>;
  /** The edges whose source id lies between `firstSource` and `lastSource`, inclusive. */
  edgesFrom(accountId: string, memoryId: string, firstSource: string, lastSource: string): Promise<GraphEdge[]>;
  /** Deletes every item of the memory's graph, and its state. */
  deleteAll(accountId: string, memoryId: string): Promise<void>;
}

/** Health of the stores the API depends on. */
export interface HealthProbe {
  check(): Promise<void>;
}

export interface MemoryStore {
  create(memory: Memory): Promise<void>;
  get(accountId: string, id: string): Promise<Memory | undefined>;
  list(accountId: string, memoryType: MemoryType | undefined, page: PageRequest): Promise<Page<Memory>>;
  /** Applies changes, optionally only when the step is not one of `unlessStep` or the job matches (else ConflictError). */
  update(
    accountId: string,
    id: string,
    changes: Partial<Memory>,
    condition?: { unlessStep?: MemoryStep[]; currentJobId?: string | null },
  ): Promise<Memory | undefined>;
  delete(accountId: string, id: string): Promise<void>;
  /** Records the last webhook try of the memory (counting a dead event); nothing when the memory is gone. */
  recordWebhookDelivery(accountId: string, id: string, status: Omit<WebhookDeliveryStatus, 'deadEvents'>): Promise<void>;
  /** Hides a removed source's chunks (a file, a detached or deleted session) from retrieval until an index without them is published. */
  excludeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void>;
  /** Lifts those exclusions again (the sources are linked anew), in one write. */
  includeSources(accountId: string, id: string, sources: readonly SourceRef[]): Promise<void>;
  /**
   * Publishes a newly built index: applies `changes` only if the memory still has `expectedVersion`
   * (else ConflictError), and forgets the exclusions the build already left out.
   */
  commitIndexVersion(
    accountId: string,
    id: string,
    publication: { expectedVersion: number; changes: Partial<Memory>; excludedBuilt: string[] },
  ): Promise<Memory | undefined>;
}

/** A memory's record and its account's source version in one round trip, where the store can (retrieval reads both). */
export interface MemoryRecordReader {
  memoryAndSourceVersion(accountId: string, memoryId: string): { memory: Promise<Memory | undefined>; sourceVersion: Promise<number> };
}

export interface LinkStore {
  /** Throws ConflictError when the file is already in the memory. */
  create(link: MemoryFileLink): Promise<void>;
  /** Links files known not to be in the memory yet, many per request (bulk import). */
  createMany(links: readonly MemoryFileLink[]): Promise<void>;
  get(accountId: string, memoryId: string, fileId: string): Promise<MemoryFileLink | undefined>;
  /** The links of `fileIds` to the memory that exist, by file id. */
  getMany(accountId: string, memoryId: string, fileIds: readonly string[]): Promise<Map<string, MemoryFileLink>>;
  listByMemory(accountId: string, memoryId: string): Promise<MemoryFileLink[]>;
  listByFile(accountId: string, fileId: string): Promise<MemoryFileLink[]>;
  /**
   * The file is in the memory's index. With `seenUpdatedAt` (the link as the ingestion read it, before the
   * file), only while the link is unchanged since: a change made meanwhile keeps it waiting (false).
   */
  markIngested(accountId: string, memoryId: string, fileId: string, at: string, seenUpdatedAt?: string): Promise<boolean>;
  /** The file's content changed: it waits for the memory's next ingestion again. */
  markChanged(accountId: string, memoryId: string, fileId: string, at: string): Promise<void>;
  delete(accountId: string, memoryId: string, fileId: string): Promise<void>;
  /** Deletes many links in batched writes. */
  deleteMany(accountId: string, links: ReadonlyArray<Pick<MemoryFileLink, 'memoryId' | 'fileId'>>): Promise<void>;
}

export interface SessionLinkStore {
  /** Throws ConflictError when the session is already in the memory. */
  create(link: MemorySessionLink): Promise<void>;
  get(accountId: string, memoryId: string, sessionId: string): Promise<MemorySessionLink | undefined>;
  listByMemory(accountId: string, memoryId: string): Promise<MemorySessionLink[]>;
  listBySession(accountId: string, sessionId: string): Promise<MemorySessionLink[]>;
  delete(accountId: string, memoryId: string, sessionId: string): Promise<void>;
}

/** What a memory's conversations are waiting for: the changes not yet in a published index. */
export interface PendingSync {
  /** Counts every change; a build that started at generation g ends only if it is still g. */
  generation: number;
  /** Sessions changed since their last build, each with its change count (to forget only what was built). */
  sessions: ReadonlyMap<string, number>;
}

/**
 * A memory's pending conversation changes and the lease of its one conversation build at a time
 * (docs/data-model.md, "conversation sync"). Changes are recorded before their work message is sent, so
 * a lost, dropped or failed message leaves them pending for the next build.
 */
export interface ConversationSyncStore {
  /** Records that these sessions of the memory changed. */
  markChanged(accountId: string, memoryId: string, sessionIds: readonly string[]): Promise<void>;
  /**
   * Takes the build lease until `untilMs` when it is free, expired, or already `holder`'s (a redelivery of
   * the holder's own message), answering what is pending; undefined when another build holds it.
   */
  acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<PendingSync | undefined>;
  /**
   * After a build of `built` was published: forgets its sessions (those not changed again since), then
   * gives the lease up if nothing new arrived and answers undefined; otherwise keeps the lease until
   * `untilMs` and answers what is pending now. Undefined too when the lease was lost meanwhile.
   */
  settle(accountId: string, memoryId: string, holder: string, built: PendingSync, untilMs: number): Promise<PendingSync | undefined>;
  /** Gives the lease up, leaving everything pending (a failed build). */
  release(accountId: string, memoryId: string, holder: string): Promise<void>;
  delete(accountId: string, memoryId: string): Promise<void>;
}

/** Where an account's message index (what GET /messages/search ranks over) is published. */
export interface MessageIndexPointer {
  version: number;
  prefix: string;
}

export interface MessageIndexStore {
  get(accountId: string): Promise<MessageIndexPointer | undefined>;
  /** Points the account at `next` when its version is still `expectedVersion` (0: none yet); false otherwise. */
  publish(accountId: string, expectedVersion: number, next: MessageIndexPointer): Promise<boolean>;
}

export interface JobStore {
  /** Records the job and its file list, however long. */
  create(job: IngestionJob): Promise<void>;
  /** The job with its whole file list. */
  get(accountId: string, id: string): Promise<IngestionJob | undefined>;
  /** Applies changes, optionally only when the job is in one of `whenState` (else ConflictError). */
  update(accountId: string, id: string, changes: Partial<JobSummary>, whenState?: IngestionJob['state'][]): Promise<void>;
  /** The memory's jobs, without their file lists. */
  listByMemory(accountId: string, memoryId: string): Promise<JobSummary[]>;
  /** Deletes the job and its file list. */
  delete(accountId: string, id: string): Promise<void>;
}

export interface ObjectInfo {
  size: number;
  contentType: string | null;
}

/** The artefact bucket: bronze (raw), silver (extracted), gold (chunks, index segments). */
export interface ObjectStore {
  put(key: string, body: Uint8Array | string, contentType?: string): Promise<void>;
  /** Writes the object from a stream of parts (multipart on S3), never holding it whole; answers its size. */
  putStream(key: string, body: AsyncIterable<Uint8Array>, contentType?: string): Promise<number>;
  get(key: string): Promise<Uint8Array | undefined>;
  /** The object's bytes as a stream, read as they are consumed; undefined when there is none. */
  getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  head(key: string): Promise<ObjectInfo | undefined>;
  delete(key: string): Promise<void>;
  /** Deletes these objects (a missing one is no error), in as few requests as the store allows. */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Deletes every object under the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  list(prefix: string): Promise<string[]>;
  /** An address the caller can PUT exactly `size` bytes to (the length is signed), valid for `seconds`. */
  presignPut(key: string, contentType: string, size: number, seconds: number): Promise<string>;
  /** An address the caller can GET the object from directly, valid for `seconds`. */
  presignGet(key: string, seconds: number): Promise<string>;
  /** Copies an object within the bucket (server side). */
  copy(from: string, to: string): Promise<void>;
}
