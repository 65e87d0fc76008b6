/**
 * The S3 Vectors operations the double serves, over its buckets and indexes, with the API reference's
 * inputs, outputs, limits and errors: CreateVectorBucket, CreateIndex, GetIndex, DeleteIndex,
 * ListIndexes, PutVectors, GetVectors, DeleteVectors, ListVectors, QueryVectors.
 */
import { DoubleError, invalid } from './errors';
import { type Body, flag, integer, list, offsetOf, requiredText, text, tokenOf, vectorData } from './fields';
import { BUCKET_NAME, INDEX_NAME, LIMITS } from './limits';
import { compileFilter, type Metadata } from './metadata-filter';
import { VectorIndex } from './vector-index';

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

interface Bucket {
  readonly arn: string;
  readonly creationTime: number;
  readonly indexes: Map<string, VectorIndex>;
}

/** Time spent scoring vectors in QueryVectors, for benches. */
export interface SearchClock {
  add(ms: number): void;
}

const now = (): number => Math.floor(Date.now() / 1000);

export class Operations {
  readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: SearchClock) {}

  CreateVectorBucket(body: Body): Body {
    const name = requiredText(body, 'vectorBucketName');
    if (!BUCKET_NAME.test(name)) throw invalid('vectorBucketName', 'must be 3-63 lowercase letters, digits and dashes');
    if (this.buckets.has(name)) throw new DoubleError('ConflictException', `vector bucket ${name} already exists`);
    const arn = `arn:aws:s3vectors:${REGION}:${ACCOUNT}:bucket/${name}`;
    this.buckets.set(name, { arn, creationTime: now(), indexes: new Map() });
    return { vectorBucketArn: arn };
  }

  CreateIndex(body: Body): Body {
    const bucketName = requiredText(body, 'vectorBucketName');
    const bucket = this.bucket(bucketName);
    const indexName = requiredText(body, 'indexName');
    if (!INDEX_NAME.test(indexName)) throw invalid('indexName', 'must be 3-63 lowercase letters, digits, dashes and dots');
    if (requiredText(body, 'dataType') !== 'float32') throw invalid('dataType', 'must be float32');
    const dimension = integer(body, 'dimension', 1, LIMITS.dimension);
    if (dimension === undefined) throw invalid('dimension', 'is required');
    const distanceMetric = requiredText(body, 'distanceMetric');
    if (!isMetric(distanceMetric)) throw invalid('distanceMetric', 'must be cosine or euclidean');
    const nonFilterable = nonFilterableKeys(body.metadataConfiguration);
    if (bucket.indexes.has(indexName)) throw new DoubleError('ConflictException', `index ${indexName} already exists`);
    if (bucket.indexes.size >= LIMITS.indexesPerBucket) {
      throw new DoubleError('ServiceQuotaExceededException', `a vector bucket holds at most ${LIMITS.indexesPerBucket} indexes`);
    }
    const indexArn = `${bucket.arn}/index/${indexName}`;
    const settings = {
      vectorBucketName: bucketName,
      indexName,
      indexArn,
      dimension,
      distanceMetric,
      nonFilterableMetadataKeys: nonFilterable,
    };
    bucket.indexes.set(indexName, new VectorIndex({ ...settings, creationTime: now() }));
    return { indexArn };
  }

  GetIndex(body: Body): Body {
    const s = this.index(body).settings;
    const metadataConfiguration = s.nonFilterableMetadataKeys.length
      ? { nonFilterableMetadataKeys: s.nonFilterableMetadataKeys }
      : undefined;
    return {
      index: {
        vectorBucketName: s.vectorBucketName,
        indexName: s.indexName,
        indexArn: s.indexArn,
        creationTime: s.creationTime,
        dataType: 'float32',
        dimension: s.dimension,
        distanceMetric: s.distanceMetric,
        ...(metadataConfiguration ? { metadataConfiguration } : {}),
      },
    };
  }

  DeleteIndex(body: Body): Body {
    const index = this.index(body);
    this.bucket(index.settings.vectorBucketName).indexes.delete(index.settings.indexName);
    return {};
  }

  ListIndexes(body: Body): Body {
    const bucketName = text(body, 'vectorBucketName') ?? bucketOfArn(text(body, 'vectorBucketArn'));
    const bucket = this.bucket(bucketName);
    const max = integer(body, 'maxResults', 1, LIMITS.listIndexes) ?? LIMITS.listIndexes;
    const prefix = text(body, 'prefix') ?? '';
    const names = [...bucket.indexes.keys()].filter((name) => name.startsWith(prefix)).sort();
    const offset = offsetOf(body);
    const page = names.slice(offset, offset + max).map((name) => {
      const s = (bucket.indexes.get(name) as VectorIndex).settings;
      return { vectorBucketName: s.vectorBucketName, indexName: s.indexName, indexArn: s.indexArn, creationTime: s.creationTime };
    });
    return { indexes: page, ...(offset + max < names.length ? { nextToken: tokenOf(offset + max) } : {}) };
  }

  PutVectors(body: Body): Body {
    const index = this.index(body);
    const { dimension, distanceMetric } = index.settings;
    const vectors = list(body, 'vectors', LIMITS.putVectors).map((item, i) => {
      const vector = (typeof item === 'object' && item !== null ? item : {}) as Body;
      const key = vectorKey(vector.key, `vectors[${i}].key`);
      const values = vectorData(vector.data, `vectors[${i}].data`, dimension, distanceMetric);
      const metadata = checkedMetadata(vector.metadata, index.nonFilterable, `vectors[${i}].metadata`);
      return { key, values, metadata };
    });
    // checked whole first: a refused batch writes nothing
    for (const vector of vectors) index.put(vector.key, vector.values, vector.metadata);
    return {};
  }

  GetVectors(body: Body): Body {
    const index = this.index(body);
    const keys = list(body, 'keys', LIMITS.getVectors).map((key, i) => vectorKey(key, `keys[${i}]`));
    const returnData = flag(body, 'returnData');
    const returnMetadata = flag(body, 'returnMetadata');
    const vectors = keys.flatMap((key) => {
      const found = index.get(key);
      return found ? [described(key, found, returnData, returnMetadata)] : [];
    });
    return { vectors };
  }

  DeleteVectors(body: Body): Body {
    const index = this.index(body);
    const keys = list(body, 'keys', LIMITS.deleteVectors).map((key, i) => vectorKey(key, `keys[${i}]`));
    for (const key of keys) index.delete(key);
    return {};
  }

  ListVectors(body: Body): Body {
    const index = this.index(body);
    const max = integer(body, 'maxResults', 1, LIMITS.listVectors) ?? LIMITS.listVectors;
    const segmentCount = integer(body, 'segmentCount', 1, LIMITS.segments);
    const segmentIndex = integer(body, 'segmentIndex', 0, LIMITS.segments - 1);
    if ((segmentCount === undefined) !== (segmentIndex === undefined))
      throw invalid('segmentIndex', 'segmentCount and segmentIndex go together');
    if (segmentCount !== undefined && segmentIndex !== undefined && segmentIndex >= segmentCount) {
      throw invalid('segmentIndex', 'must be less than segmentCount');
    }
    const keys = index.liveKeys().filter((_, i) => segmentCount === undefined || i % segmentCount === segmentIndex);
    const offset = offsetOf(body);
    const returnData = flag(body, 'returnData');
    const returnMetadata = flag(body, 'returnMetadata');
    const vectors = keys
      .slice(offset, offset + max)
      .map((key) => described(key, index.get(key) ?? { values: [] }, returnData, returnMetadata));
    return { vectors, ...(offset + max < keys.length ? { nextToken: tokenOf(offset + max) } : {}) };
  }

  QueryVectors(body: Body): Body {
    const index = this.index(body);
    const { dimension, distanceMetric } = index.settings;
    const topK = integer(body, 'topK', 1, LIMITS.topK);
    if (topK === undefined) throw invalid('topK', 'is required');
    const query = vectorData(body.queryVector, 'queryVector', dimension, distanceMetric);
    const filter = body.filter === undefined || body.filter === null ? undefined : compileFilter(body.filter, index.nonFilterable);
    const returnMetadata = flag(body, 'returnMetadata');
    const returnDistance = flag(body, 'returnDistance');
    const started = performance.now();
    const found = index.search(query, topK, filter);
    this.clock.add(performance.now() - started);
    const vectors = found.map((n) => ({
      key: n.key,
      ...(returnDistance ? { distance: n.distance } : {}),
      ...(returnMetadata && n.metadata ? { metadata: n.metadata } : {}),
    }));
    return { vectors, distanceMetric };
  }

  private bucket(name: string): Bucket {
    const bucket = this.buckets.get(name);
    if (!bucket) throw new DoubleError('NotFoundException', `vector bucket ${name} does not exist`);
    return bucket;
  }

  /** The index named by `vectorBucketName` + `indexName`, or by `indexArn`. */
  private index(body: Body): VectorIndex {
    const arn = text(body, 'indexArn');
    const [bucketName, indexName] = arn
      ? (/^arn:aws:s3vectors:[^:]*:[^:]*:bucket\/([^/]+)\/index\/([^/]+)$/.exec(arn)?.slice(1) ?? [])
      : [text(body, 'vectorBucketName'), text(body, 'indexName')];
    if (!bucketName || !indexName) throw invalid('indexArn', 'give indexArn, or vectorBucketName and indexName');
    const index = this.bucket(bucketName).indexes.get(indexName);
    if (!index) throw new DoubleError('NotFoundException', `index ${indexName} does not exist`);
    return index;
  }
}

const isMetric = (value: string): value is 'cosine' | 'euclidean' => value === 'cosine' || value === 'euclidean';

function bucketOfArn(arn: string | undefined): string {
  const name = arn ? /bucket\/([^/]+)$/.exec(arn)?.[1] : undefined;
  if (!name) throw invalid('vectorBucketName', 'give vectorBucketName or vectorBucketArn');
  return name;
}

function nonFilterableKeys(configuration: unknown): string[] {
  if (configuration === undefined || configuration === null) return [];
  const keys = (configuration as Body).nonFilterableMetadataKeys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > LIMITS.nonFilterableKeys || !keys.every((k) => typeof k === 'string')) {
    throw invalid('metadataConfiguration.nonFilterableMetadataKeys', `must list 1 to ${LIMITS.nonFilterableKeys} keys`);
  }
  return keys as string[];
}

function vectorKey(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > LIMITS.keyLength) {
    throw invalid(field, `must be 1 to ${LIMITS.keyLength} characters`);
  }
  return value;
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Metadata within the limits: primitives or lists of them, 50 keys, 2 KB filterable, 40 KB in all. */
function checkedMetadata(value: unknown, nonFilterable: ReadonlySet<string>, field: string): Metadata | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'must be an object');
  const entries = Object.entries(value as Body);
  if (entries.length > LIMITS.metadataKeys) throw invalid(field, `has ${entries.length} keys; at most ${LIMITS.metadataKeys} are allowed`);
  for (const [key, item] of entries) {
    const ok = isPrimitive(item) || (Array.isArray(item) && item.length > 0 && item.every(isPrimitive));
    if (!ok) throw invalid(`${field}.${key}`, 'must be a string, number, boolean or a non-empty list of them');
  }
  const filterable = Object.fromEntries(entries.filter(([key]) => !nonFilterable.has(key)));
  if (bytesOf(filterable) > LIMITS.filterableMetadataBytes) {
    throw invalid(field, `filterable metadata is ${bytesOf(filterable)} bytes; at most ${LIMITS.filterableMetadataBytes} are allowed`);
  }
  if (bytesOf(value) > LIMITS.totalMetadataBytes) throw invalid(field, `metadata exceeds ${LIMITS.totalMetadataBytes} bytes`);
  return value as Metadata;
}

const isPrimitive = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

function described(key: string, found: { values: number[]; metadata?: Metadata }, data: boolean, metadata: boolean): Body {
  return {
    key,
    ...(data ? { data: { float32: found.values } } : {}),
    ...(metadata && found.metadata ? { metadata: found.metadata } : {}),
  };
}
