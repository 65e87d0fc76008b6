/**
 * The provider settings, one shape for every kind of provider: a union discriminated by `kind`, read here
 * once from the environment, the variables each kind needs checked and named when missing or stray. The
 * adapters map each union to its provider in one place, `xxxFromSettings(settings, context)` in
 * functions/adapters/providers/ (the context is what every provider shares: the AWS region).
 */
import { ConfigError } from './config-error';
import type { ParsedEnvironment } from './sections';

/** KMEM_EMBEDDER: the embedder of retrieval (offline word vectors by default). */
export type EmbedderSettings =
  | { kind: 'word-vectors' | 'none' }
  | { kind: 'openai'; url: string; model: string; dimensions: number; apiKey?: string }
  | { kind: 'bedrock'; model?: string; dimensions?: number };

/** KMEM_GRAPH_EXTRACTOR: who reads entities and relations out of a file's chunks (offline by default). */
export type GraphExtractorSettings =
  | { kind: 'offline' | 'comprehend' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string }
  | { kind: 'bedrock'; model: string };

/** KMEM_ANSWER_MODEL_PROVIDER: the model that writes grounded answers (none by default). */
export type AnswerModelSettings =
  | { kind: 'none' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; apiKeySecret?: string; timeoutMs: number }
  | { kind: 'bedrock'; model: string; endpoint?: string; timeoutMs: number };

/** KMEM_RERANKER: the reranker of retrieval's fused candidates (none by default). */
export type RerankerSettings =
  | { kind: 'none' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; candidates: number; timeoutMs: number }
  | { kind: 'bedrock'; model: string; endpoint?: string; candidates: number; timeoutMs: number };

export function embedderSettingsOf(e: ParsedEnvironment): EmbedderSettings {
  if (e.KMEM_EMBEDDER === 'openai') {
    if (!e.KMEM_EMBEDDING_URL || !e.KMEM_EMBEDDING_MODEL || !e.KMEM_EMBEDDING_DIMENSIONS) {
      throw new ConfigError(
        'invalid configuration: KMEM_EMBEDDER=openai needs KMEM_EMBEDDING_URL, KMEM_EMBEDDING_MODEL and KMEM_EMBEDDING_DIMENSIONS',
      );
    }
    return {
      kind: 'openai',
      url: e.KMEM_EMBEDDING_URL,
      model: e.KMEM_EMBEDDING_MODEL,
      dimensions: e.KMEM_EMBEDDING_DIMENSIONS,
      ...(e.KMEM_EMBEDDING_API_KEY ? { apiKey: e.KMEM_EMBEDDING_API_KEY } : {}),
    };
  }
  if (e.KMEM_EMBEDDER === 'bedrock') {
    return {
      kind: 'bedrock',
      ...(e.KMEM_EMBEDDING_MODEL ? { model: e.KMEM_EMBEDDING_MODEL } : {}),
      ...(e.KMEM_EMBEDDING_DIMENSIONS ? { dimensions: e.KMEM_EMBEDDING_DIMENSIONS } : {}),
    };
  }
  return { kind: e.KMEM_EMBEDDER };
}

export function graphExtractorSettingsOf(e: ParsedEnvironment): GraphExtractorSettings {
  const kind = e.KMEM_GRAPH_EXTRACTOR;
  if (kind === 'offline' || kind === 'comprehend') return { kind };
  if (!e.KMEM_GRAPH_EXTRACTOR_MODEL)
    throw new ConfigError(`invalid configuration: KMEM_GRAPH_EXTRACTOR=${kind} needs KMEM_GRAPH_EXTRACTOR_MODEL`);
  if (kind === 'bedrock') return { kind, model: e.KMEM_GRAPH_EXTRACTOR_MODEL };
  if (!e.KMEM_GRAPH_EXTRACTOR_URL)
    throw new ConfigError('invalid configuration: KMEM_GRAPH_EXTRACTOR=openai needs KMEM_GRAPH_EXTRACTOR_URL');
  return {
    kind,
    url: e.KMEM_GRAPH_EXTRACTOR_URL,
    model: e.KMEM_GRAPH_EXTRACTOR_MODEL,
    ...(e.KMEM_GRAPH_EXTRACTOR_API_KEY ? { apiKey: e.KMEM_GRAPH_EXTRACTOR_API_KEY } : {}),
  };
}

export function answerModelSettingsOf(e: ParsedEnvironment): AnswerModelSettings {
  const kind = e.KMEM_ANSWER_MODEL_PROVIDER;
  if (kind === 'none') return noAnswerModel(e);
  if (!e.KMEM_ANSWER_MODEL) throw new ConfigError(`invalid configuration: KMEM_ANSWER_MODEL_PROVIDER=${kind} needs KMEM_ANSWER_MODEL`);
  return kind === 'bedrock' ? bedrockAnswerModel(e, e.KMEM_ANSWER_MODEL) : openAiAnswerModel(e, e.KMEM_ANSWER_MODEL);
}

const ANSWER_MODEL_VARIABLES = [
  'KMEM_ANSWER_MODEL',
  'KMEM_ANSWER_MODEL_URL',
  'KMEM_ANSWER_MODEL_API_KEY',
  'KMEM_ANSWER_MODEL_API_KEY_SECRET',
] as const;

function noAnswerModel(e: ParsedEnvironment): AnswerModelSettings {
  const stray = ANSWER_MODEL_VARIABLES.filter((name) => e[name] !== undefined);
  if (stray.length)
    throw new ConfigError(
      `invalid configuration: ${stray.join(', ')} set but KMEM_ANSWER_MODEL_PROVIDER is none (set it to openai or bedrock)`,
    );
  return { kind: 'none' };
}

function bedrockAnswerModel(e: ParsedEnvironment, model: string): AnswerModelSettings {
  if (e.KMEM_ANSWER_MODEL_API_KEY || e.KMEM_ANSWER_MODEL_API_KEY_SECRET) {
    throw new ConfigError(
      'invalid configuration: KMEM_ANSWER_MODEL_PROVIDER=bedrock takes no KMEM_ANSWER_MODEL_API_KEY (it signs with AWS credentials)',
    );
  }
  const endpoint = e.KMEM_ANSWER_MODEL_URL ? { endpoint: e.KMEM_ANSWER_MODEL_URL } : {};
  return { kind: 'bedrock', model, timeoutMs: e.KMEM_ANSWER_TIMEOUT_MS, ...endpoint };
}

function openAiAnswerModel(e: ParsedEnvironment, model: string): AnswerModelSettings {
  if (!e.KMEM_ANSWER_MODEL_URL)
    throw new ConfigError('invalid configuration: KMEM_ANSWER_MODEL_PROVIDER=openai needs KMEM_ANSWER_MODEL_URL');
  const apiKey = e.KMEM_ANSWER_MODEL_API_KEY;
  const apiKeySecret = e.KMEM_ANSWER_MODEL_API_KEY_SECRET;
  if (apiKey && apiKeySecret)
    throw new ConfigError('invalid configuration: set KMEM_ANSWER_MODEL_API_KEY or KMEM_ANSWER_MODEL_API_KEY_SECRET, not both');
  const key = apiKey ? { apiKey } : apiKeySecret ? { apiKeySecret } : {};
  return { kind: 'openai', url: e.KMEM_ANSWER_MODEL_URL, model, timeoutMs: e.KMEM_ANSWER_TIMEOUT_MS, ...key };
}

const RERANKER_VARIABLES = ['KMEM_RERANKER_MODEL', 'KMEM_RERANKER_URL', 'KMEM_RERANKER_API_KEY'] as const;

export function rerankerSettingsOf(e: ParsedEnvironment): RerankerSettings {
  const kind = e.KMEM_RERANKER;
  if (kind === 'none') {
    const stray = RERANKER_VARIABLES.filter((name) => e[name] !== undefined);
    if (stray.length)
      throw new ConfigError(`invalid configuration: ${stray.join(', ')} set but KMEM_RERANKER is none (set it to openai or bedrock)`);
    return { kind };
  }
  if (!e.KMEM_RERANKER_MODEL) throw new ConfigError(`invalid configuration: KMEM_RERANKER=${kind} needs KMEM_RERANKER_MODEL`);
  const shared = { model: e.KMEM_RERANKER_MODEL, candidates: e.KMEM_RERANKER_CANDIDATES, timeoutMs: e.KMEM_RERANKER_TIMEOUT_MS };
  if (kind === 'bedrock') {
    if (e.KMEM_RERANKER_API_KEY)
      throw new ConfigError('invalid configuration: KMEM_RERANKER=bedrock takes no KMEM_RERANKER_API_KEY (it signs with AWS credentials)');
    return { kind, ...shared, ...(e.KMEM_RERANKER_URL ? { endpoint: e.KMEM_RERANKER_URL } : {}) };
  }
  if (!e.KMEM_RERANKER_URL) throw new ConfigError('invalid configuration: KMEM_RERANKER=openai needs KMEM_RERANKER_URL');
  return { kind, url: e.KMEM_RERANKER_URL, ...shared, ...(e.KMEM_RERANKER_API_KEY ? { apiKey: e.KMEM_RERANKER_API_KEY } : {}) };
}
