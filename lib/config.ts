/**
 * Stage configuration of the CDK app: one validated object per stage (throttling, logs, function sizes,
 * alarm thresholds). Presets per stage name, then overrides from the `config` context value
 * (`npx cdk deploy -c stage=prod -c 'config={"alarms":{"latencyP99Ms":1500}}'`), then zod: a bad value
 * fails the synth instead of deploying something unintended.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';

const retentionDays = z
  .number()
  .int()
  .refine((days) => Object.values(RetentionDays).includes(days), 'not a CloudWatch Logs retention period');

const positiveInt = z.number().int().positive();

/**
 * The name CloudFormation gives a kmem stage's artefact bucket (`<stack>-dataartefacts<hash>-<suffix>`,
 * from the Data/Artefacts construct): this stage's or another's, it holds every account's files.
 */
const ARTEFACT_BUCKET_NAME = /dataartefacts/;

/** A bucket bulk import may read: an S3 bucket name, never a kmem artefact bucket. */
const importBucket = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
  .refine((name) => !ARTEFACT_BUCKET_NAME.test(name), "is a kmem artefact bucket (it holds every account's files), never an import source");

const apiSchema = z.object({
  /** Name of the API Gateway stage (the first path segment of the URL). */
  stageName: z
    .string()
    .regex(/^[a-zA-Z0-9_]+$/)
    .default('v1'),
  throttleRateLimit: z.number().positive().default(50),
  throttleBurstLimit: positiveInt.default(100),
  memoryMb: z.number().int().min(128).max(10_240).default(1024),
  /** Below API Gateway's 29 s integration timeout, so a slow call ends in our logs, not only in a 504. */
  timeoutSeconds: z.number().int().min(1).max(28).default(28),
  /** Optional reserved concurrency per endpoint group, e.g. `{"retrieval": 50}`. */
  reservedConcurrency: z.record(z.string(), positiveInt).default({}),
});

const workerSchema = z.object({
  memoryMb: z.number().int().min(128).max(10_240).default(3008),
  timeoutMinutes: z.number().int().min(1).max(15).default(15),
  ephemeralStorageMb: z.number().int().min(512).max(10_240).default(4096),
  batchSize: z.number().int().min(1).max(10).default(5),
  /** Most concurrent worker invocations the queue may start (SQS event source maximum concurrency). */
  maxConcurrency: z.number().int().min(2).max(1000).default(10),
  maxReceiveCount: positiveInt.default(5),
  queueRetentionDays: z.number().int().min(1).max(14).default(4),
  deadLetterRetentionDays: z.number().int().min(1).max(14).default(14),
  reservedConcurrency: positiveInt.optional(),
});

const alarmsSchema = z.object({
  periodMinutes: positiveInt.default(5),
  evaluationPeriods: positiveInt.default(1),
  /** p99 latency per route and method, milliseconds. */
  latencyP99Ms: positiveInt.default(3000),
  /** 5XX answers per route and method within one period. */
  serverErrors: positiveInt.default(1),
  /** Age of the oldest ingestion message, seconds. */
  queueAgeSeconds: positiveInt.default(1800),
  /** Visible ingestion messages. */
  queueDepth: positiveInt.default(1000),
  /** Worker invocation errors within one period. */
  workerErrors: positiveInt.default(1),
  /** Files failing, percent of the files processed in one period (5 files at least). */
  fileFailurePercent: positiveInt.max(100).default(25),
  /** Webhook events given up on, percent of the events settled in one period. */
  webhookDeadPercent: positiveInt.max(100).default(10),
  /** One latency and one 5XX alarm per route; false keeps only the API-wide ones. */
  perRoute: z.boolean().default(true),
  /** Send alarm state changes to an encrypted SNS topic (subscribe to it after deploying). */
  topic: z.boolean().default(true),
});

const storageSchema = z.object({
  /** Point-in-time recovery of the table (continuous backups: restore it as it was at any second of the window). */
  pointInTimeRecovery: z.boolean().default(true),
  /** Days the table can be restored back to (DynamoDB allows 1 to 35). */
  pointInTimeRecoveryDays: z.number().int().min(1).max(35).default(35),
  /** Keep replaced and deleted artefacts as noncurrent versions (for noncurrentVersionDays): the bucket's backup. */
  versioning: z.boolean().default(true),
  /** Days a replaced or deleted artefact version is kept before S3 removes it for good. */
  noncurrentVersionDays: positiveInt.default(30),
  /** Days S3 server access logs are kept. */
  accessLogDays: positiveInt.default(90),
  /** Refuse table deletion (also when the stack is deleted with the table retained, it stays protected). */
  deletionProtection: z.boolean().default(true),
});

/**
 * The model behind `assisted=true` retrieval (grounded answers citing the extracts): `none` (the offline
 * extracts; no model bill), `bedrock` (Converse; enable the model in the account first; only it is
 * granted), or `openai` (any OpenAI-compatible endpoint; its key lives in Secrets Manager: `apiKeySecret`
 * names the secret, the retrieval function may read that secret alone and reads it once per container;
 * no key is ever in the template or the function's environment). `timeoutSeconds` bounds the wait for an answer, retries
 * included; by default half the API function's timeout.
 */
const answerModelSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('none') }),
  z.object({ provider: z.literal('bedrock'), model: z.string().min(1), timeoutSeconds: positiveInt.optional() }),
  z.object({
    provider: z.literal('openai'),
    model: z.string().min(1),
    url: z.url(),
    apiKeySecret: z
      .string()
      .regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, 'a Secrets Manager secret name')
      .optional(),
    apiKey: z
      .never({ error: 'a key is not stored in the template: put it in Secrets Manager and name the secret in answerModel.apiKeySecret' })
      .optional(),
    timeoutSeconds: positiveInt.optional(),
  }),
]);

/**
 * The reranker of retrieval's fused candidates on AWS: `none` (default), or `bedrock` (the `Rerank` API:
 * `amazon.rerank-v1:0`, `cohere.rerank-v3-5:0` or a model ARN; enable the model in the account first).
 * `candidates` (default 50) go to it per query; `timeoutMs` (default 5,000) bounds the wait.
 */
const rerankerSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('none') }),
  z.object({
    provider: z.literal('bedrock'),
    model: z.string().min(1),
    candidates: z.number().int().min(1).max(1_000).optional(),
    timeoutMs: positiveInt.optional(),
  }),
]);

/**
 * Where a memory's vectors live (docs/scale.md). `resident` (default): in the memory's index segments,
 * loaded by the query function. `s3vectors`: the stack also creates an Amazon S3 Vectors vector bucket,
 * and a memory whose chunks pass `tierThresholdChunks` keeps its vectors there (one vector index per
 * memory, and one per account for its message index); the worker and the query functions are granted
 * exactly the S3 Vectors actions they use, on that bucket's indexes only.
 */
const vectorsSchema = z.object({
  store: z.enum(['resident', 's3vectors']).default('resident'),
  /** Chunks above which a memory's vectors move to S3 Vectors: ~100 MB of int8 vectors at 384 dimensions. */
  tierThresholdChunks: positiveInt.default(250_000),
});

/** Everything a stage can configure. */
const stageConfigSchema = z
  .object({
    stage: z.string().regex(/^[a-z][a-z0-9-]{0,19}$/, 'lowercase letters, digits and dashes, 20 at most'),
    logRetentionDays: retentionDays.default(RetentionDays.ONE_MONTH),
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
    /**
     * The semantic side of retrieval on AWS: `none` (lexical and graph; no model bill), or `bedrock` (Titan
     * text embeddings; enable the model in the account first). The offline word vectors (~300 MB) do not fit
     * a Lambda package.
     */
    embedder: z.enum(['none', 'bedrock']).default('none'),
    answerModel: answerModelSchema.default({ provider: 'none' }),
    reranker: rerankerSchema.default({ provider: 'none' }),
    /**
     * Buckets of this account that `POST /files/import` may read (`{s3: {bucket, prefix}}`): the worker gets
     * read and list access to exactly these; an import naming another bucket is refused. The ceiling: each
     * account reads only the `bucket/prefix` pairs an operator gives it (`kmem accounts import-sources`).
     * Never a kmem artefact bucket.
     */
    importBuckets: z.array(importBucket).default([]),
    /**
     * When set, an EventBridge rule on this schedule (`rate(1 day)`, `cron(0 3 * * ? *)`) has the worker
     * sync every ready `website`, `sitemap` and `website_bulk` file of every account again (as
     * `POST /files/resync/{id}` does: unchanged pages cost nothing). Finding them reads the whole table once
     * per tick (a Scan), so pick an interval of hours or days.
     */
    webResyncSchedule: z
      .string()
      .regex(
        /^(rate\(\d+ (minute|minutes|hour|hours|day|days)\)|cron\(\S+( \S+){5}\))$/,
        'an EventBridge schedule expression: rate(N unit) or cron(6 fields)',
      )
      .optional(),
    /** Run functions with `--enable-source-maps`: TypeScript files and lines in logged stack traces. */
    sourceMapStackTraces: z.boolean().default(true),
    storage: storageSchema.prefault({}),
    api: apiSchema.prefault({}),
    worker: workerSchema.prefault({}),
    alarms: alarmsSchema.prefault({}),
    vectors: vectorsSchema.prefault({}),
  })
  .refine((config) => config.answerModel.provider === 'none' || (config.answerModel.timeoutSeconds ?? 0) < config.api.timeoutSeconds, {
    path: ['answerModel', 'timeoutSeconds'],
    message: 'must be shorter than api.timeoutSeconds',
  });

export type StageConfig = z.output<typeof stageConfigSchema>;
type StageInput = z.input<typeof stageConfigSchema>;
type Overrides = Partial<Omit<StageInput, 'stage'>>;

/** Presets by stage name; any other name gets the schema defaults. */
const PRESETS: Record<string, Overrides> = {
  dev: {
    logRetentionDays: RetentionDays.TWO_WEEKS,
    logLevel: 'DEBUG',
    storage: { noncurrentVersionDays: 7, deletionProtection: false },
    api: { throttleRateLimit: 20, throttleBurstLimit: 40 },
  },
  prod: {
    logRetentionDays: RetentionDays.THREE_MONTHS,
    api: { throttleRateLimit: 200, throttleBurstLimit: 400 },
    worker: { maxConcurrency: 50 },
  },
};

const SECTIONS = ['storage', 'api', 'worker', 'alarms', 'vectors'] as const;

/** Validated configuration of `stage`: its preset, then `overrides` (section by section), then defaults. */
export function stageConfig(stage: string, overrides: unknown = {}): StageConfig {
  const extra = z.record(z.string(), z.unknown()).parse(overrides);
  const preset: Record<string, unknown> = PRESETS[stage] ?? {};
  const merged: Record<string, unknown> = { ...preset, ...extra, stage };
  for (const section of SECTIONS) {
    merged[section] = { ...asObject(preset[section]), ...asObject(extra[section]) };
  }
  const parsed = stageConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid kmem stage config for '${stage}': ${problems.join('; ')}`);
  }
  return parsed.data;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
