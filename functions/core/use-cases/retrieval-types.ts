/** What memory retrieval needs and is asked: shared by retrieve-memory.ts and retrieval-scope.ts, so neither imports the other's types. */
import type { Embedder } from '../../engine';
import type { FileStore } from '../files/ports';
import type { MemoryRecordReader, MemoryStore } from '../ports';
import type { SessionStore } from '../conversations/ports';
import type { Reranking } from '../reranking/candidate-rerank';
import type { IndexCache } from '../stored-index/index-cache';
import type { SearchFilter } from '../stored-index/search-filter';
import type { VectorTierSetup } from '../vector-tier/ports';

export interface RetrievalDeps {
  memories: MemoryStore;
  files: FileStore;
  /** The memory and the source version in one read, where the store can (else `memories` and `files` apart). */
  memoryRecords?: MemoryRecordReader;
  sessions: Pick<SessionStore, 'getMany'>;
  indexes: IndexCache;
  indexing: { embedder: () => Embedder | null };
  /** The reranker of the fused candidates, when one is configured (core/reranking). */
  reranking?: Reranking;
  /** The vector tier, when the stage turns it on: a tiered memory's vector candidates come from it. */
  vectors?: VectorTierSetup;
}

export interface RetrievalQuery {
  memoryId: string;
  query: string;
  topK: number;
  facts: boolean;
  assisted: boolean;
  after?: string;
  before?: string;
  /** Conditions every passage, fact and source holds (GET /memory/'s `filter`). */
  filter?: SearchFilter;
  /** ISO 8601; default now. */
  asOf?: string;
}
