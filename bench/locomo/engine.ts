/**
 * The retrieval engine of `GET /memory/`, run in the benchmark's process over the child runtime's own
 * stores, so a question's ranked turns come back as chunk ids (the HTTP answer carries none).
 *
 * The stores are found through `runtime.json`, which the local runtime writes in its data directory
 * (the same file `npm run kmem` uses). The memory is read from the table, its published index loaded by
 * `IndexCache` from the S3 store, and the question goes to `retrieveFromIndex`, the ranking
 * `retrieveFromMemory` runs (time in queries included), with nothing excluded: every chunk allowed.
 * `httpPayload` asks the running API the same question, for the parity check in bench/locomo.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeLocalDeps } from '../../functions/local/compose';
import { createRetrievalIndexing } from '../../functions/adapters/indexing';
import { loadConfig } from '../../functions/config';
import type { RankParamOverrides } from '../../functions/engine/retrieval/params';
import type { TimePriorParams } from '../../functions/engine/retrieval/time-prior';
import { retrieveFromIndex } from '../../functions/core/use-cases/retrieve-memory';
import { objectKeys } from '../../functions/core/object-keys';
import type { ApiClient } from '../support/api';

interface RankedTurns {
  /** Message ids of the ranked chunks, best first (chunk id `msg:<messageId>`). */
  messageIds: string[];
  /** Payload contents, as `GET /memory/` would answer them. */
  payload: string[];
  /** Payload items that merged more than one chunk. */
  mergedItems: number;
}

export interface Engine {
  rank(
    accountId: string,
    memoryId: string,
    query: string,
    topK: number,
    params?: RankParamOverrides,
    timePrior?: Partial<TimePriorParams>,
  ): Promise<RankedTurns>;
  /** Messages in the account's published message index (what GET /messages/search ranks over). */
  indexedMessages(accountId: string): Promise<number>;
}

interface Endpoints {
  dynamodbEndpoint: string;
  s3Endpoint: string;
}

const MESSAGE_CHUNK = 'msg:';

export function openEngine(dataDir: string): Engine {
  const endpoints = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as Endpoints;
  const config = loadConfig({
    ...process.env,
    KMEM_DATA_DIR: dataDir,
    KMEM_DYNAMODB_ENDPOINT: endpoints.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: endpoints.s3Endpoint,
    AWS_REGION: 'local',
  });
  const deps = composeLocalDeps(config);
  const { indexes, indexing } = createRetrievalIndexing(config, deps.objects);
  return {
    async rank(accountId, memoryId, query, topK, params, timePrior) {
      const memory = await deps.memories.get(accountId, memoryId);
      const loaded = memory ? await indexes.load(memory) : undefined;
      if (!loaded) throw new Error(`memory ${memoryId} has no published index`);
      const request = { query, topK, facts: false, assisted: false };
      const outcome = await retrieveFromIndex(loaded, request, {
        embedder: indexing.embedder(),
        ...(params ? { params } : {}),
        ...(timePrior ? { timePrior } : {}),
      });
      const chunkIds = outcome.items.flatMap((item) => item.ordinals.map((ordinal) => loaded.retrieval.chunks.ids[ordinal] ?? ''));
      return {
        messageIds: chunkIds.filter((id) => id.startsWith(MESSAGE_CHUNK)).map((id) => id.slice(MESSAGE_CHUNK.length)),
        payload: outcome.payload.map((item) => item.content),
        mergedItems: outcome.items.filter((item) => item.ordinals.length > 1).length,
      };
    },
    async indexedMessages(accountId) {
      const pointer = await deps.messageIndexes.get(accountId);
      if (!pointer) return 0;
      const root = objectKeys.messageIndexRoot(accountId);
      return (await indexes.loadBuild(`${accountId}/messages@${pointer.version}`, root, pointer.prefix, pointer.version)).chunks.size;
    },
  };
}

/** The message ids `GET /messages/search` answers for the question, among one customer's messages. */
export async function searchedMessageIds(api: ApiClient, customerUserID: string, query: string, topK: number): Promise<string[]> {
  const search = new URLSearchParams({ customerUserID, query, topK: String(topK) });
  const answer = await api.get(`/messages/search?${search.toString()}`);
  return (answer.messages as Array<{ id: string }>).map((message) => message.id);
}

/** The payload contents `GET /memory/` answers for the question. */
export async function httpPayload(api: ApiClient, memoryId: string, query: string, topK: number): Promise<string[]> {
  const search = new URLSearchParams({ memoryID: memoryId, query, topK: String(topK) });
  const answer = await api.get(`/memory/?${search.toString()}`);
  return (answer.payload as Array<{ content: string }>).map((item) => item.content);
}
