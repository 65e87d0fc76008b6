/**
 * Domain records, as the use cases see them, in one casing (`memoryId`, `externalUrl`). Storage shapes live
 * in the adapters (functions/adapters/dynamodb: item schemas, which keep the attribute names earlier
 * versions wrote), wire shapes (`memoryID`, `externalURI`) in the presenters of the route groups. Use-case
 * inputs take this casing too: routes map the wire bodies to it. Left in wire casing on purpose: error
 * messages name the field as sent, and webhook event `data` is the delivered body. Chunk lists store a
 * message's `sessionID`/`customerUserID` as first written; core/stored-index/chunks.ts maps them both ways.
 */
import type { SourceId } from './source-ref';

export const MESSAGE_ROLES = ['norole', 'system', 'assistant', 'user', 'function', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface Account {
  id: string;
  name: string;
  totalTokenLimit: number;
  tokensRemaining: number;
  webhookSecret: string;
  createdAt: string;
  /** The lookup id of the key KMEM_API_KEY last put here: revoked when KMEM_API_KEY changes. */
  bootstrapKeyId?: string;
  /** `bucket/prefix` pairs an `{s3}` import of this account may read (an operator sets them); none when absent. */
  importSources?: string[];
  /** Set when `kmem accounts delete` starts erasing the account: the worker drops its work from then on. */
  deletingAt?: string;
}

export interface ApiKeyRecord {
  /** Public half of the key's hash, used to find it. */
  lookupId: string;
  /** Salted SHA-256 of the whole key, compared in constant time. */
  verifier: string;
  salt: string;
  accountId: string;
  createdAt: string;
  /** Set when the key was revoked: it no longer authenticates, and KMEM_API_KEY cannot bring it back. */
  revokedAt?: string;
}

export interface User {
  id: string;
  accountId: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MetadataEntry {
  key: string;
  value: string;
}

export interface Session {
  id: string;
  accountId: string;
  customerUserId: string | null;
  metadata: MetadataEntry[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  endedAt: string | null;
}

export interface Message {
  id: string;
  accountId: string;
  sessionId: string;
  role: MessageRole;
  content: string;
  customerUserId: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The message's place among its session's messages in the order they were written (1, 2, ...): messages
   * of equal `createdAt` (imported history often has one time per session) keep that order. Not on the wire.
   */
  sequence?: number;
}

/** What a list operation asks for: a page size and at most one of the two page tokens. */
export interface PageRequest {
  limit: number;
  nextToken?: string;
  previousToken?: string;
}

export interface Page<T> {
  items: T[];
  nextToken: string | null;
  previousToken: string | null;
}

export const FILE_TYPES = ['website', 'sitemap', 'website_bulk', 'document', 'text', 'image', 'audio', 'video', 'other'] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const FILE_CATEGORIES = ['audio', 'video', 'web', 'document', 'other'] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

type FileState = 'pending' | 'processing' | 'ready' | 'failed';

/** A raw upload, handed out by POST /files/upload and consumed by one files/create. */
export interface Upload {
  key: string;
  accountId: string;
  name: string;
  size: number;
  contentType: string;
  fileId: string | null;
  /** A presigned upload: where the caller PUTs the bytes (copied to `key` at files/create). */
  stagingKey?: string;
  createdAt: string;
}

export interface FileRecord {
  id: string;
  accountId: string;
  name: string;
  extension: string;
  fileType: FileType;
  category: FileCategory;
  state: FileState;
  error: string | null;
  bronzeKey: string | null;
  /** The web address of a website or sitemap file (its page, for a hidden child). */
  externalUrl: string | null;
  contentType: string | null;
  /** `upload`, `url`, or the id of the sitemap or crawl that created this file. */
  source: string;
  parentFileId: string | null;
  /** The ingestion job that last chunked the file. */
  jobId: string | null;
  originRegion: string;
  silverTranscriptKey: string | null;
  silverAudioKey: string | null;
  goldChunkKey: string | null;
  /** Characters of extracted text (seconds for audio and video). */
  length: number | null;
  /** Bytes of the raw file. */
  size: number | null;
  tokens: number | null;
  numSpeakers: number | null;
  hiddenFilesTotal: number;
  hiddenFilesCreated: number;
  hiddenFilesProcessed: number;
  hiddenFilesIngested: number;
  /** Where the file came from, for upserts (`POST /files/create` `sourceKey`, an import's member or object); null when not given. */
  sourceKey: string | null;
  /** SHA-256 (hex) of what the file was made from: the raw bytes, or the type and address of a web file. */
  contentHash: string | null;
  /** A web page's ETag, Last-Modified, sitemap lastmod and text hash, for re-sync. */
  validators: { etag?: string; lastModified?: string; lastmod?: string; textHash?: string } | null;
  /** Where an import staged this file's text with its batch's, for the ingestion it starts (ingest/staged-texts.ts). */
  stagedTextKey: string | null;
  /** `{key, value}` pairs the caller (or an S3 object's user metadata) gave; search filters match them at query time. */
  metadata: MetadataEntry[];
  createdAt: string;
  updatedAt: string;
}

export const MEMORY_TYPES = ['graph', 'vector'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const ONTOLOGIES = ['culture', 'essays', 'support_requests'] as const;
export type Ontology = (typeof ONTOLOGIES)[number];

export type MemoryStep = 'select' | 'queued' | 'ingesting' | 'ready' | 'failed';

export interface Memory {
  id: string;
  accountId: string;
  name: string;
  description: string;
  memoryType: MemoryType;
  ontology: Ontology | null;
  chunkSize: number | null;
  chunkOverlap: number | null;
  webhookUrl: string | null;
  acceleration: boolean;
  factExtraction: boolean;
  step: MemoryStep;
  adapterRepo: string;
  adapterVersion: number;
  /** The searchable index: its version (0 before the first ingestion) and where its segments live. */
  indexVersion: number;
  indexPrefix: string | null;
  chunkCount: number;
  fileCount: number;
  /** Graph memories: the knowledge graph's size (0 for vector memories). */
  entityCount: number;
  relationCount: number;
  factCount: number;
  currentJobId: string | null;
  /** The first files of the last ingestion that failed (at most FAILED_FILES_LISTED), with why. */
  failedFiles: Array<{ fileId: string; error: string }>;
  /** How many files of the last ingestion failed, listed or not. */
  failedFileCount: number;
  /**
   * Sources (files, and sessions as `session:<id>`: see SourceId) removed from the memory whose chunks may
   * still be in the published index: never returned. Its stored name, from when only files were excluded.
   */
  excludedFileIds: SourceId[];
  lastError: string | null;
  /** The last try to deliver one of this memory's webhook events, and how many events were given up on. */
  webhookDelivery: WebhookDeliveryStatus | null;
  createdAt: string;
  updatedAt: string;
}

/** What the account sees of its memory's webhook: the last try's outcome, and the events given up on. */
export interface WebhookDeliveryStatus {
  eventId: string;
  eventType: string;
  /** delivered; retrying (another try is queued); dead (given up after the last try, or the address is refused). */
  outcome: 'delivered' | 'retrying' | 'dead';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  at: string;
  /** Events of this memory given up on so far. */
  deadEvents: number;
}

export interface MemoryFileLink {
  id: string;
  accountId: string;
  memoryId: string;
  fileId: string;
  type: 'file';
  /** Set when the file's chunks entered the memory's index. */
  ingestedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A session attached to a memory: its messages, past and future, are part of the memory. */
export interface MemorySessionLink {
  accountId: string;
  memoryId: string;
  sessionId: string;
  createdAt: string;
}

// What an index holds chunks of (files, sessions, deleted messages) and how stored forms name them.
export * from './source-ref';

type JobState = 'queued' | 'running' | 'completed' | 'failed';

export interface IngestionJob {
  id: string;
  accountId: string;
  memoryId: string;
  /** Every file the job ingests (a memory may hold tens of thousands). */
  fileIds: string[];
  reservedTokens: number;
  usedTokens: number;
  /** Tokens charged per file id instead of the file's own count (a re-synced site: its changed pages only). */
  charge?: Record<string, number>;
  state: JobState;
  reconciled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A job without its file list, as a memory's listing of jobs answers it. */
export type JobSummary = Omit<IngestionJob, 'fileIds'>;
