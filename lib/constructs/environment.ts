/** The environment every kmem function shares: the stage, where the data lives, the account defaults. */
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { StageConfig } from '../config';
import type { FunctionEnvironment } from './service-function';

/** Where a function finds the stored data. */
export interface DataLocation {
  readonly table: Table;
  readonly bucket: Bucket;
}

/** `KMEM_*` settings common to the API functions and the worker (the queue URL is added by each). */
export function sharedEnvironment(config: StageConfig, data: DataLocation): FunctionEnvironment {
  return {
    KMEM_STAGE: config.stage,
    KMEM_TABLE_NAME: data.table.tableName,
    KMEM_BUCKET_NAME: data.bucket.bucketName,
  };
}

/** The embedding settings of the functions that read them (retrieval, message search and the worker). */
export function embeddingEnvironment(config: StageConfig): FunctionEnvironment {
  return {
    KMEM_EMBEDDER: config.embedder,
    // the word-vector package is larger than a Lambda package may be
    KMEM_GRAPH_WORD_VECTORS: 'false',
  };
}

/** The buckets bulk import may read (the files function checks requests, the worker reads them). */
export function importEnvironment(config: StageConfig): FunctionEnvironment {
  return { KMEM_IMPORT_BUCKETS: config.importBuckets.join(',') };
}

/** The retrieval function's reranker settings (`KMEM_RERANKER_*`); none when the stage has no reranker. */
export function rerankerEnvironment(config: StageConfig): FunctionEnvironment {
  const reranker = config.reranker;
  if (reranker.provider === 'none') return {};
  return {
    KMEM_RERANKER: reranker.provider,
    KMEM_RERANKER_MODEL: reranker.model,
    ...(reranker.candidates ? { KMEM_RERANKER_CANDIDATES: String(reranker.candidates) } : {}),
    ...(reranker.timeoutMs ? { KMEM_RERANKER_TIMEOUT_MS: String(reranker.timeoutMs) } : {}),
  };
}

/** The retrieval function's answer model settings (`KMEM_ANSWER_*`); none when the stage has no model. */
export function answerEnvironment(config: StageConfig): FunctionEnvironment {
  const answer = config.answerModel;
  if (answer.provider === 'none') return {};
  const timeoutSeconds = answer.timeoutSeconds ?? Math.max(1, Math.floor(config.api.timeoutSeconds / 2));
  return {
    KMEM_ANSWER_MODEL_PROVIDER: answer.provider,
    KMEM_ANSWER_MODEL: answer.model,
    KMEM_ANSWER_TIMEOUT_MS: String(timeoutSeconds * 1000),
    ...(answer.provider === 'openai' ? { KMEM_ANSWER_MODEL_URL: answer.url, KMEM_ANSWER_MODEL_API_KEY_SECRET: answer.apiKeySecret } : {}),
  };
}
