/**
 * The vector tier of large memories (issue #27, docs/scale.md): the port through which a memory's vectors
 * live in a managed vector store (Amazon S3 Vectors) instead of its resident index segments, and what
 * every stored vector carries for kmem's filters. Adapter: functions/adapters/s3vectors/.
 *
 * One vector index per memory, and one per account's message index, named from the account and the
 * memory (./index-names.ts): no call can name another account's index. The adapter keeps within the
 * store's limits; what a filter cannot ask the store exactly, it asks wider and post-filters with
 * `matchesConditions` (./conditions.ts) or the caller's own predicate.
 */

/**
 * Whose vectors: a memory's, or an account's message index. A memory's index comes in generations (the
 * manifest that names it says which, docs/scale.md): each move into the tier makes a new one, so an index
 * one version drops is never one another version writes into. No generation: the first-made name. The
 * account's message index comes in generations the same way.
 */
export type VectorIndexRef =
  | { readonly accountId: string; readonly memoryId: string; readonly generation?: string }
  | { readonly accountId: string; readonly messages: true; readonly generation?: string };

/** What a stored vector says about its chunk: what kmem's filters test. */
export interface VectorAttributes {
  /** The chunk's file (or, for a conversation's message, its session: a chunk's SourceId). */
  readonly fileId: string;
  readonly fileType?: string;
  readonly sessionId?: string;
  readonly userId?: string;
  readonly role?: string;
  readonly sourceKey?: string;
  /** Milliseconds since the epoch: a message's `createdAt`. */
  readonly createdAt?: number;
  /** The file's (or session's) metadata pairs. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** One vector to store: its key (unique in the index), its values, its attributes. */
export interface TierVector {
  readonly key: string;
  readonly values: ArrayLike<number>;
  readonly attributes: VectorAttributes;
}

/**
 * kmem's search filter as the tier sees it (decisions.md, `filter` on GET /memory/): every condition
 * given must hold; arrays are "any of"; `after` inclusive and `before` exclusive, in epoch milliseconds.
 */
export interface VectorConditions {
  readonly fileIds?: readonly string[];
  readonly fileTypes?: readonly string[];
  readonly sessionIds?: readonly string[];
  readonly userIds?: readonly string[];
  readonly roles?: readonly string[];
  readonly sourceKeyPrefix?: string;
  /** Each key's value equals the string, or is one of the strings. */
  readonly metadata?: Readonly<Record<string, string | readonly string[]>>;
  readonly after?: number;
  readonly before?: number;
}

/** A nearest neighbour: its key, its distance (cosine: 1 - cosine similarity), what it carries. */
export interface TierHit {
  readonly key: string;
  readonly distance: number;
  readonly attributes: VectorAttributes;
  /** Attributes left out of the store for its size limits (their conditions were checked by `accept`, if given). */
  readonly partial: boolean;
}

export interface TierQuery {
  readonly vector: ArrayLike<number>;
  /** 1 to 100 (S3 Vectors' QueryVectors limit). */
  readonly topK: number;
  readonly conditions?: VectorConditions;
  /**
   * The caller's exact predicate (kmem's chunk-record filter, by key), for what the stored attributes
   * cannot decide: a hit is returned only when it accepts it. Without it, `matchesConditions` decides.
   */
  readonly accept?: (hit: TierHit) => boolean;
}

export interface TierAnswer {
  /** Nearest first, at most `topK`, every one satisfying the conditions. */
  readonly hits: TierHit[];
  /** False when the widening stopped at its bound before finding `topK` (fewer hits than exist may be returned). */
  readonly complete: boolean;
}

/** The port: a managed store of one index per memory. Every call is idempotent. */
export interface VectorTier {
  /** Creates the index when absent (cosine distance, float32 of `dimension` values). */
  ensureIndex(ref: VectorIndexRef, dimension: number): Promise<void>;
  /** Writes the vectors (an existing key is overwritten), in the store's batches. */
  put(ref: VectorIndexRef, vectors: readonly TierVector[]): Promise<void>;
  /** Deletes the keys (absent keys are no error). */
  delete(ref: VectorIndexRef, keys: readonly string[]): Promise<void>;
  query(ref: VectorIndexRef, query: TierQuery): Promise<TierAnswer>;
  /** Deletes the index and every vector in it (an absent index is no error). */
  dropIndex(ref: VectorIndexRef): Promise<void>;
  /** The generations of the ref's index that exist ('' for the name without one), whatever the ref's own generation. */
  generations(ref: VectorIndexRef): Promise<string[]>;
}

/** The tier as a stage turns it on: the store, and the size past which a memory's vectors move there. */
export interface VectorTierSetup {
  readonly tier: VectorTier;
  /** Live chunks above which a memory's vectors move to the tier (and below 80% of which they move back). */
  readonly thresholdChunks: number;
}
