/** Which settings sections each deployed function reads (the endpoint groups and the worker): its schema and its environment. */
import type { SettingsSection } from './sections';

const API_SETTINGS = ['store', 'http', 'limits'] as const satisfies readonly SettingsSection[];

/** The sections each deployed function reads (the endpoint groups and the worker). */
export const FUNCTION_SETTINGS = {
  meta: API_SETTINGS,
  users: API_SETTINGS,
  sessions: API_SETTINGS,
  messages: [...API_SETTINGS, 'embeddings', 'vectors'],
  // a memory's webhookUrl is checked at create, as deliveries check it
  memories: [...API_SETTINGS, 'addresses', 'vectors'],
  files: [...API_SETTINGS, 'imports'],
  retrieval: [...API_SETTINGS, 'embeddings', 'vectors', 'answers', 'reranker'],
  /** POST /mcp: checks the key, then its tools call the API itself. */
  mcp: API_SETTINGS,
  worker: [
    'store',
    'work',
    'addresses',
    'webhooks',
    'web',
    'extraction',
    'hostileInput',
    'embeddings',
    'vectors',
    'graphExtractor',
    'answers',
    'imports',
    'limits',
  ],
} as const satisfies Record<string, readonly SettingsSection[]>;

export type FunctionSettingsName = keyof typeof FUNCTION_SETTINGS;
