/**
 * The vector tier on Amazon S3 Vectors (the `VectorTier` port of functions/core/vector-tier.ts), through
 * the AWS SDK client made once per container. Within the store's published limits: 500 vectors a
 * PutVectors or DeleteVectors call (and a request under 20 MiB), topK 1-100, cosine indexes of float32.
 *
 * Every call is idempotent: PutVectors overwrites by key, DeleteVectors ignores absent keys, an index
 * already there (or already gone) is success. The SDK retries throttling and server errors with backoff;
 * what still fails is a `VectorTierError` saying whether a later try may pass, and the caller (the
 * worker's message) simply runs the whole call again, which converges on the same vectors.
 *
 * A filter the store cannot answer exactly (./store-filter.ts) is asked wider and post-filtered: each
 * round asks the most the store answers (100) with the vectors' metadata, since every call is billed
 * for the whole index whatever its topK; each next round leaves out the keys already seen, until topK hits pass, the index has no more candidates, or 20 rounds (~2,000
 * candidates) have run: then the answer says `complete: false`. A caller that can name the files a
 * condition allows (a source-key prefix or metadata resolved against the file records) should pass
 * `fileIds` instead: the store answers that exactly, in one call.
 */
import {
  CreateIndexCommand,
  DeleteIndexCommand,
  DeleteVectorsCommand,
  GetIndexCommand,
  ListIndexesCommand,
  PutVectorsCommand,
  type PutInputVector,
  type QueryOutputVector,
  QueryVectorsCommand,
  type S3VectorsClient,
} from '@aws-sdk/client-s3vectors';
import { InternalError } from '../../core/errors';
import { matchesConditions } from '../../core/vector-tier/conditions';
import { baseRef, vectorIndexName } from '../../core/vector-tier/index-names';
import type { TierAnswer, TierHit, TierQuery, TierVector, VectorIndexRef, VectorTier } from '../../core/vector-tier/ports';
import { awsFailure } from '../aws-errors';
import { attributesOf, storedMetadataOf } from './stored-metadata';
import { excluding, type FilterDocument, storeFilterOf } from './store-filter';

/** Vectors per PutVectors or DeleteVectors call (AWS: 500). */
const BATCH_VECTORS = 500;
/** A PutVectors body at most (AWS: 20 MiB a request), estimated before sending. */
const BATCH_BYTES = 16 * 1024 * 1024;
/** topK of one QueryVectors call at most (AWS: 100). */
export const MAX_TOP_K = 100;
/** Rounds a post-filtered query runs at most. */
export const WIDENING_ROUNDS = 20;
/** Batches written at once (AWS allows 1,000 write requests and 2,500 vectors a second per index). */
const WRITE_CONCURRENCY = 4;

/** An S3 Vectors call that failed after the SDK's retries. */
export class VectorTierError extends InternalError {
  override readonly name: string = 'VectorTierError';
  readonly retryable: boolean;

  constructor(error: unknown, action: string) {
    const failure = awsFailure('Amazon S3 Vectors', error, action);
    super(failure.message, { cause: error });
    this.retryable = failure.retryable;
  }
}

const errorName = (error: unknown): string | undefined => (error instanceof Error ? error.name : undefined);

export class S3VectorsTier implements VectorTier {
  constructor(
    private readonly client: S3VectorsClient,
    private readonly vectorBucketName: string,
  ) {}

  async ensureIndex(ref: VectorIndexRef, dimension: number): Promise<void> {
    const indexName = vectorIndexName(ref);
    const existing = await this.call('read an index', () => this.client.send(new GetIndexCommand(this.at(indexName))), 'NotFoundException');
    if (existing) {
      if (existing.index?.dimension !== dimension) {
        throw new InternalError(`vector index ${indexName} holds ${existing.index?.dimension} dimensions, not ${dimension}`);
      }
      return;
    }
    const create = new CreateIndexCommand({ ...this.at(indexName), dataType: 'float32', dimension, distanceMetric: 'cosine' });
    await this.call('create an index', () => this.client.send(create), 'ConflictException');
  }

  async put(ref: VectorIndexRef, vectors: readonly TierVector[]): Promise<void> {
    const indexName = vectorIndexName(ref);
    // cosine leaves a zero vector undefined (S3 Vectors refuses it): it matches nothing, so it is not stored
    const zero = vectors.filter((vector) => isZero(vector.values)).map((vector) => vector.key);
    const stored = vectors.filter((vector) => !isZero(vector.values)).map(toPutVector);
    await inBatches(batchesOf(stored), (batch) =>
      this.call('put vectors', () => this.client.send(new PutVectorsCommand({ ...this.at(indexName), vectors: batch }))),
    );
    if (zero.length) await this.delete(ref, zero);
  }

  async delete(ref: VectorIndexRef, keys: readonly string[]): Promise<void> {
    const indexName = vectorIndexName(ref);
    const batches: string[][] = [];
    for (let i = 0; i < keys.length; i += BATCH_VECTORS) batches.push(keys.slice(i, i + BATCH_VECTORS));
    await inBatches(batches, (batch) =>
      this.call(
        'delete vectors',
        () => this.client.send(new DeleteVectorsCommand({ ...this.at(indexName), keys: batch })),
        'NotFoundException',
      ),
    );
  }

  async dropIndex(ref: VectorIndexRef): Promise<void> {
    const indexName = vectorIndexName(ref);
    await this.call('delete an index', () => this.client.send(new DeleteIndexCommand(this.at(indexName))), 'NotFoundException');
  }

  async generations(ref: VectorIndexRef): Promise<string[]> {
    const base = vectorIndexName(baseRef(ref));
    const found: string[] = [];
    let nextToken: string | undefined;
    do {
      const list = new ListIndexesCommand({ vectorBucketName: this.vectorBucketName, prefix: base, ...(nextToken ? { nextToken } : {}) });
      const page = await this.call('list indexes', () => this.client.send(list));
      for (const index of page?.indexes ?? []) {
        const name = index.indexName ?? '';
        if (name === base) found.push('');
        else if (name.startsWith(`${base}-`)) found.push(name.slice(base.length + 1));
      }
      nextToken = page?.nextToken;
    } while (nextToken);
    return found;
  }

  async query(ref: VectorIndexRef, query: TierQuery): Promise<TierAnswer> {
    if (!Number.isInteger(query.topK) || query.topK < 1 || query.topK > MAX_TOP_K) {
      throw new InternalError(`topK ${query.topK}: S3 Vectors answers 1 to ${MAX_TOP_K} neighbours a query`);
    }
    if (hasEmptyList(query)) return { hits: [], complete: true };
    const { filter, exact } = storeFilterOf(query.conditions);
    const conditions = query.conditions;
    const judge = query.accept ?? (conditions ? (hit: TierHit) => matchesConditions(hit.attributes, conditions) : () => true);
    if (exact && !query.accept) {
      const page = await this.queryPage(ref, query.vector, query.topK, filter);
      return { hits: page.slice(0, query.topK), complete: true };
    }
    return this.widen(ref, query, filter, judge);
  }

  /** Post-filtered rounds, each leaving out the keys the earlier ones saw. */
  private async widen(ref: VectorIndexRef, query: TierQuery, filter: FilterDocument | undefined, judge: (hit: TierHit) => boolean) {
    const seen: string[] = [];
    const hits: TierHit[] = [];
    for (let round = 0; round < WIDENING_ROUNDS; round++) {
      const page = await this.queryPage(ref, query.vector, MAX_TOP_K, excluding(filter, seen));
      for (const hit of page) {
        seen.push(hit.key);
        if (judge(hit)) hits.push(hit);
      }
      if (hits.length >= query.topK || page.length < MAX_TOP_K) return { hits: hits.slice(0, query.topK), complete: true };
    }
    return { hits: hits.slice(0, query.topK), complete: false };
  }

  private async queryPage(
    ref: VectorIndexRef,
    vector: ArrayLike<number>,
    topK: number,
    filter: FilterDocument | undefined,
  ): Promise<TierHit[]> {
    const command = new QueryVectorsCommand({
      ...this.at(vectorIndexName(ref)),
      topK,
      queryVector: { float32: Array.from(vector) },
      ...(filter ? { filter } : {}),
      returnMetadata: true,
      returnDistance: true,
    });
    const answer = await this.call('query vectors', () => this.client.send(command), 'NotFoundException');
    return (answer?.vectors ?? []).map(toHit).sort((a, b) => a.distance - b.distance);
  }

  private at(indexName: string): { vectorBucketName: string; indexName: string } {
    return { vectorBucketName: this.vectorBucketName, indexName };
  }

  /** Runs `send`; the error named `absent` (an index or vector not there, an index already made) answers undefined. */
  private async call<T>(action: string, send: () => Promise<T>, absent?: string): Promise<T | undefined> {
    try {
      return await send();
    } catch (error) {
      if (absent !== undefined && errorName(error) === absent) return undefined;
      throw new VectorTierError(error, action);
    }
  }
}

function hasEmptyList(query: TierQuery): boolean {
  const c = query.conditions ?? {};
  const lists = [c.fileIds, c.fileTypes, c.sessionIds, c.userIds, c.roles, ...Object.values(c.metadata ?? {}).filter(Array.isArray)];
  return lists.some((list) => list !== undefined && list.length === 0);
}

function isZero(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== 0) return false;
  return true;
}

function toPutVector(vector: TierVector): PutInputVector {
  return { key: vector.key, data: { float32: Array.from(vector.values) }, metadata: storedMetadataOf(vector.key, vector.attributes) };
}

function toHit(vector: QueryOutputVector): TierHit {
  const { attributes, partial } = attributesOf((vector.metadata ?? {}) as Record<string, unknown>);
  return { key: vector.key ?? '', distance: vector.distance ?? Number.POSITIVE_INFINITY, attributes, partial };
}

/** Batches of at most 500 vectors and about 16 MiB of JSON each. */
function batchesOf(vectors: readonly PutInputVector[]): PutInputVector[][] {
  const batches: PutInputVector[][] = [];
  let batch: PutInputVector[] = [];
  let bytes = 0;
  for (const vector of vectors) {
    const size = JSON.stringify(vector).length;
    if (batch.length === BATCH_VECTORS || (batch.length > 0 && bytes + size > BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(vector);
    bytes += size;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/** Runs `work` over the batches, a few at once; the first failure is thrown once the others settle. */
async function inBatches<B>(batches: readonly B[], work: (batch: B) => Promise<unknown>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (next < batches.length && failures.length === 0) {
      const batch = batches[next++] as B;
      await work(batch).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, batches.length) }, lane));
  if (failures.length) throw failures[0];
}
