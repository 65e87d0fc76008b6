/**
 * What the console's screens read from the API: the shapes of the answers, checked against the typed
 * client's by the compiler where api.ts hands them over.
 */
import type { OperationData } from '../../packages/client/src';

export interface Memory {
  id: string;
  name: string;
  description: string;
  memoryType: 'graph' | 'vector';
  step: string;
  chunkSize: number | null;
  chunkOverlap: number | null;
  createdAt: string;
}

export interface MemoryDetails extends Memory {
  fileCount: number;
  chunkCount: number;
  entityCount: number;
  relationCount: number;
  factCount: number;
  failedFiles: { fileID: string; error: string }[];
  failedFileCount: number;
  lastError: string | null;
}

type FileState = 'pending' | 'processing' | 'ready' | 'failed';

export interface KmemFile {
  id: string;
  name: string;
  fileType: string;
  category: string;
  state: FileState;
  error: string | null;
  length: number | null;
  size: number | null;
  tokens: number | null;
  metadata: MetadataEntry[];
  createdAt: string;
}

export interface MetadataEntry {
  key: string;
  value: string;
}

export interface FileDetails extends KmemFile {
  externalURI: string | null;
  source: string;
  content: string | null;
  hiddenFilesTotal: number;
  hiddenFilesProcessed: number;
  hiddenFilesCreated: number;
  hiddenFilesIngested: number;
}

export interface Page<T> {
  items: T[];
  nextToken: string | null;
  previousToken: string | null;
}

export interface Account {
  name: string;
  totalTokenLimit: number;
  tokensRemaining: number;
  tokensUsed: number;
}

export interface Retrieval {
  payload: { content: string; score: number }[];
  facts: { content: string }[];
  sources: { id: string; name: string; url: string; score: number }[];
}

export interface GraphNode {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  mentions: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  predicate: string;
  weight: number;
}

export interface Entity {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  relations: { relation: string; direction?: 'outgoing' | 'incoming'; target: { id: string; name: string } }[];
  facts: DatedFact[];
  passages: { content: string; fileID: string }[];
}

/** A fact with its validity: `validTo` null while it holds (a superseded fact keeps its end). */
interface DatedFact {
  content: string;
  sourceID: string | null;
  validFrom: string | null;
  validTo: string | null;
}

/** What a customer user said of themself in a graph memory's sessions: facts and preferences, with validity. */
export interface UserProfile {
  customerUserID: string;
  facts: ProfileEntry[];
  preferences: ProfileEntry[];
}

interface ProfileEntry {
  content: string;
  sourceID: string;
  validFrom: string;
  validTo: string | null;
}

export interface Session {
  id: string;
  customerUserID: string | null;
  createdAt: string;
  endedAt: string | null;
  deletedAt: string | null;
}

export interface SessionSummary {
  sessionID: string;
  summary: string;
  keyPoints: string[];
  messageCount: number;
  updatedAt: string;
}

export interface Message {
  id: string;
  sessionID: string;
  role: string;
  content: string;
  customerUserID: string | null;
  createdAt: string;
  score?: number;
}

export interface StartedIngestion {
  message: string;
  sampleCount: number;
  tokenMetrics: { tokensForIngestion: number; tokensRemaining: number; totalTokenLimit: number };
}

export type CreatedFile = OperationData<'createFile'>['data'];
