/**
 * The one module that reads the environment. Every other module receives a typed `Config`.
 *
 * Settings come in small sections (./sections.ts); a deployed function reads only the sections it needs
 * (`FUNCTION_SETTINGS`), validated at cold start by the schema composed from them, so a setting it does
 * not read can neither break nor steer it. On AWS Lambda (`AWS_LAMBDA_FUNCTION_NAME` set) the values the
 * stack always sets are required: a function started without its table, bucket or queue fails loudly
 * instead of falling back to a local default. The local runtime and the CLI read every section, with
 * local defaults.
 */
import type { ExtractLimits } from './extract-limits';
import type { ImportSettings } from '../core/use-cases/imports';
import { ConfigError } from './config-error';
import {
  type AnswerModelSettings,
  answerModelSettingsOf,
  type EmbedderSettings,
  embedderSettingsOf,
  type GraphExtractorSettings,
  graphExtractorSettingsOf,
  type RerankerSettings,
  rerankerSettingsOf,
} from './providers';
import {
  ALL_SETTINGS,
  type EnvironmentVariable,
  environmentSchema,
  onLambda,
  type ParsedEnvironment,
  requiredOnLambda,
  type SettingsSection,
  variablesOf,
} from './sections';
import { type VectorTierSettings, vectorTierOf } from './vector-tier';
import { FUNCTION_SETTINGS, type FunctionSettingsName } from './function-settings';

export { type EnvironmentVariable, environmentSchema, requiredOnLambda, settingsSchema } from './sections';
export { FUNCTION_SETTINGS, type FunctionSettingsName } from './function-settings';

export interface Config {
  stage: string;
  region: string;
  tableName: string;
  bucketName: string;
  queue: { kind: 'sqs'; url: string } | { kind: 'local'; directory: string; visibilityTimeoutSeconds: number };
  /** `originRegion` of files: the AWS region, or `local` on the local runtime. */
  originRegion: string;
  work: { maxAttempts: number; retrySeconds: number; ingestWaitSeconds: number; crawlStretchMs: number; retireAfterSeconds: number };
  embeddings: EmbedderSettings;
  graphWordVectors: boolean;
  /** Keep the word-vector table's binary cache on disk; off on Lambda, where no later container would read it. */
  wordVectorCache: boolean;
  graphExtractor: GraphExtractorSettings;
  answerModel: AnswerModelSettings;
  reranker: RerankerSettings;
  indexCacheSize: number;
  extraction: { ocr: 'tesseract' | 'textract'; speech: 'pocketsphinx' | 'transcribe'; pdfMaxOcrPages: number; mediaTimeoutMs: number };
  web: {
    timeoutMs: number;
    maxRedirects: number;
    maxBytes: number;
    sitemapMaxUrls: number;
    crawlMaxPages: number;
    crawlMaxDepth: number;
    resyncMinIntervalSeconds: number;
  };
  dynamodbEndpoint?: string;
  s3Endpoint?: string;
  defaultTokenLimit: number;
  bootstrapApiKey?: string;
  dataDir: string;
  host: string;
  port: number;
  allowPrivateUrls: boolean;
  maxBodyBytes: number;
  maxUploadBytes: number;
  authCacheMs: number;
  accessLog: boolean;
  webhooks: { maxAttempts: number; backoffSeconds: number; timeoutMs: number };
  hostileInput: HostileInputConfig;
  limits: { requestsPerMinute: number; extractionTokensPerSecond: number };
  imports: ImportSettings;
  vectorTier: VectorTierSettings;
}

/** Bulk import's settings: a shape the use cases declare (core knows no config module). */
export type { ImportSettings };

export type { AnswerModelSettings, EmbedderSettings, GraphExtractorSettings, RerankerSettings };

export { ConfigError };

export type { VectorTierSettings };

/**
 * Reads the settings of `sections` from `env` (every section by default: the local runtime, the CLI).
 * Variables of other sections are not read: those parts of the `Config` hold their defaults.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, sections: readonly SettingsSection[] = ALL_SETTINGS): Config {
  const problems = onLambda(env) ? missingOnLambda(env, sections) : [];
  const read = Object.fromEntries(variablesOf(sections).map((name) => [name, env[name]]));
  const parsed = environmentSchema.safeParse(read);
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  if (problems.length || !parsed.success) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  return {
    stage: e.KMEM_STAGE,
    region: e.AWS_REGION,
    tableName: e.KMEM_TABLE_NAME,
    bucketName: e.KMEM_BUCKET_NAME,
    queue: queueOf(e),
    originRegion: e.KMEM_DYNAMODB_ENDPOINT ? 'local' : e.AWS_REGION,
    work: {
      maxAttempts: e.KMEM_WORK_MAX_ATTEMPTS,
      retrySeconds: e.KMEM_WORK_RETRY_SECONDS,
      ingestWaitSeconds: e.KMEM_INGEST_WAIT_SECONDS,
      crawlStretchMs: e.KMEM_CRAWL_STRETCH_SECONDS * 1000,
      retireAfterSeconds: e.KMEM_RETIRE_AFTER_SECONDS,
    },
    embeddings: embedderSettingsOf(e),
    graphWordVectors: e.KMEM_GRAPH_WORD_VECTORS,
    wordVectorCache: !onLambda(env),
    graphExtractor: graphExtractorSettingsOf(e),
    answerModel: answerModelSettingsOf(e),
    reranker: rerankerSettingsOf(e),
    indexCacheSize: e.KMEM_INDEX_CACHE_SIZE,
    extraction: extractionOf(e),
    web: webOf(e),
    dynamodbEndpoint: e.KMEM_DYNAMODB_ENDPOINT,
    s3Endpoint: e.KMEM_S3_ENDPOINT,
    defaultTokenLimit: e.KMEM_DEFAULT_TOKEN_LIMIT,
    bootstrapApiKey: e.KMEM_API_KEY,
    dataDir: e.KMEM_DATA_DIR,
    host: e.KMEM_HOST,
    port: e.KMEM_PORT,
    allowPrivateUrls: e.KMEM_ALLOW_PRIVATE_URLS,
    maxBodyBytes: e.KMEM_MAX_BODY_KB * 1024,
    maxUploadBytes: e.KMEM_MAX_UPLOAD_MB * 1024 * 1024,
    authCacheMs: e.KMEM_AUTH_CACHE_SECONDS * 1000,
    accessLog: e.KMEM_ACCESS_LOG,
    webhooks: {
      maxAttempts: e.KMEM_WEBHOOK_MAX_ATTEMPTS,
      backoffSeconds: e.KMEM_WEBHOOK_BACKOFF_SECONDS,
      timeoutMs: e.KMEM_WEBHOOK_TIMEOUT_MS,
    },
    hostileInput: hostileInputOf(e, onLambda(env)),
    limits: { requestsPerMinute: e.KMEM_RATE_LIMIT_PER_MINUTE, extractionTokensPerSecond: e.KMEM_EXTRACTION_TOKENS_PER_SECOND },
    imports: importsOf(e),
    vectorTier: vectorTierOf(e),
  };
}

/** Members a bulk import holds in one batch at most, in bytes (a tar member is read whole by the walk). */
const IMPORT_BATCH_BYTES = 64 * 1024 * 1024;

function importsOf(e: ParsedEnvironment): ImportSettings {
  const listed = (e.KMEM_IMPORT_BUCKETS ?? '').split(',').map((b) => b.trim());
  const mb = 1024 * 1024;
  return {
    buckets: listed.filter(Boolean),
    artefactBucket: e.KMEM_BUCKET_NAME,
    archive: {
      maxArchiveBytes: e.KMEM_IMPORT_MAX_ARCHIVE_MB * mb,
      maxMembers: e.KMEM_IMPORT_MAX_MEMBERS,
      maxMemberBytes: e.KMEM_IMPORT_MAX_MEMBER_MB * mb,
      maxTotalBytes: e.KMEM_IMPORT_MAX_TOTAL_MB * mb,
      maxRatio: e.KMEM_IMPORT_MAX_RATIO,
    },
    concurrency: e.KMEM_IMPORT_CONCURRENCY,
    batchBytes: IMPORT_BATCH_BYTES,
  };
}

function missingOnLambda(env: NodeJS.ProcessEnv, sections: readonly SettingsSection[]): string[] {
  return requiredOnLambda(sections)
    .filter((name) => !env[name])
    .map((name) => `${name}: not set (required on AWS Lambda, where the stack sets it)`);
}

interface HostileInputConfig {
  limits: ExtractLimits;
  isolation: 'thread' | 'inline';
  memoryMb: number;
  timeoutMs: number;
}

function hostileInputOf(e: ParsedEnvironment, lambda: boolean): HostileInputConfig {
  const mb = 1024 * 1024;
  return {
    limits: {
      maxUnzippedBytes: e.KMEM_EXTRACT_MAX_UNZIPPED_MB * mb,
      maxZipRatio: e.KMEM_EXTRACT_MAX_ZIP_RATIO,
      maxPdfPages: e.KMEM_EXTRACT_MAX_PDF_PAGES,
      maxPixels: e.KMEM_EXTRACT_MAX_MEGAPIXELS * 1_000_000,
      maxMediaSeconds: e.KMEM_EXTRACT_MAX_MEDIA_MINUTES * 60,
      maxHtmlBytes: e.KMEM_EXTRACT_MAX_HTML_MB * mb,
    },
    isolation: e.KMEM_EXTRACT_ISOLATION ?? (lambda ? 'inline' : 'thread'),
    memoryMb: e.KMEM_EXTRACT_MEMORY_MB,
    timeoutMs: e.KMEM_EXTRACT_TIMEOUT_SECONDS * 1000,
  };
}

function queueOf(e: ParsedEnvironment): Config['queue'] {
  if (e.KMEM_QUEUE_URL) return { kind: 'sqs', url: e.KMEM_QUEUE_URL };
  return {
    kind: 'local',
    directory: e.KMEM_LOCAL_QUEUE_DIR ?? `${e.KMEM_DATA_DIR}/queue`,
    visibilityTimeoutSeconds: e.KMEM_LOCAL_QUEUE_VISIBILITY_SECONDS,
  };
}

function extractionOf(e: ParsedEnvironment): Config['extraction'] {
  return {
    ocr: e.KMEM_OCR,
    speech: e.KMEM_SPEECH,
    pdfMaxOcrPages: e.KMEM_PDF_MAX_OCR_PAGES,
    mediaTimeoutMs: e.KMEM_MEDIA_TIMEOUT_SECONDS * 1000,
  };
}

function webOf(e: ParsedEnvironment): Config['web'] {
  return {
    timeoutMs: e.KMEM_FETCH_TIMEOUT_MS,
    maxRedirects: e.KMEM_FETCH_MAX_REDIRECTS,
    maxBytes: e.KMEM_FETCH_MAX_MB * 1024 * 1024,
    sitemapMaxUrls: e.KMEM_SITEMAP_MAX_URLS,
    crawlMaxPages: e.KMEM_CRAWL_MAX_PAGES,
    crawlMaxDepth: e.KMEM_CRAWL_MAX_DEPTH,
    resyncMinIntervalSeconds: e.KMEM_RESYNC_MIN_INTERVAL_SECONDS,
  };
}

/** Settings by variable name, as the environment would give them. */
export type Settings = Partial<Record<EnvironmentVariable, string>>;

/**
 * Every section (the local runtime, the command line, tests): the process environment with `settings`
 * over it. The environment is read, never written.
 */
export function localConfig(settings: Settings = {}): Config {
  return loadConfig({ ...process.env, ...settings });
}

/**
 * A deployed function's settings: only the sections it reads (`FUNCTION_SETTINGS`), from `env`. Its
 * handler composes its deps from them once, on its first call; invalid or missing settings throw a
 * `ConfigError` on every call until fixed, so no store is ever reached with a wrong name.
 */
export function functionConfig(name: FunctionSettingsName, env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(env, FUNCTION_SETTINGS[name]);
}
