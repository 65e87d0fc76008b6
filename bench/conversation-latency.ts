/**
 * Retrieval latency over a large conversation memory: `GET /memory/` (topK 10, as bench/latency.ts asks)
 * over a vector memory of 100,000 messages, with acceleration (HNSW) on and off, warm.
 *
 *   npm run bench:conversation-latency [-- --messages 100000 --sessions 100 --queries 300 --only on|off]
 *
 * The messages are LoCoMo turns (../shared/bench-data/locomo, read in place) cycled over `--sessions` (at most 100: one `add-sessions` call)
 * sessions with a number of their own, so every message is distinct. They are seeded straight into the
 * child runtime's table through the message repository (writing 100,000 messages over HTTP would take
 * most of an hour on 2 cores and is not what is measured), then the sessions are attached over the API in
 * one `add-sessions` call and the worker builds the index as it does for any conversation (timed). The
 * LoCoMo questions are then asked over HTTP: a discarded warm-up, then sequential queries. Prints a
 * markdown table with p50/p95/p99 and the verdict against the targets (p50 < 15 ms, p99 < 50 ms).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { composeLocalDeps } from '../functions/local/compose';
import { loadConfig } from '../functions/config';
import type { Message } from '../functions/core/model';
import { mapConcurrently } from '../functions/core/concurrency';
import { loadLocomo } from './locomo/dataset';
import { contentOf } from './locomo/import-conversation';
import { QueryClient } from './latency/query-client';
import { summarise, type LatencySummary } from './latency/stats';
import { apiClient, idOf, inParallel } from './support/api';
import { machineFacts } from './support/report';
import { startServerProcess } from './support/server-process';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/locomo/locomo_dev.json') },
    messages: { type: 'string', default: '100000' },
    sessions: { type: 'string', default: '100' },
    queries: { type: 'string', default: '300' },
    only: { type: 'string' },
  },
  strict: true,
});
const MESSAGES = Number(values.messages);
const SESSIONS = Number(values.sessions);
const QUERIES = Number(values.queries);
const WARMUP = 30;
const conversations = loadLocomo(values.data);
const turns = conversations.flatMap((conversation) => conversation.sessions.flatMap((session) => session.turns.map(contentOf)));
const questions = conversations.flatMap((conversation) => conversation.questions.map((question) => question.question));
const settings = (values.only ? [values.only] : ['off', 'on']).map((only) => only === 'on');

interface Row {
  acceleration: boolean;
  buildMs: number;
  warm: LatencySummary;
}

const server = await startServerProcess({ startTimeoutMs: 120_000 });
try {
  const api = apiClient(server.info.url, server.info.apiKey);
  const account = await accountOf(api);
  const sessionIds = await inParallel(SESSIONS, 8, async () => idOf(await api.post('/sessions/create', {})));
  const seededMs = await seedMessages(server.dataDir, account, sessionIds);
  progress(`${MESSAGES} messages seeded in ${(seededMs / 1000).toFixed(1)} s`);
  const rows: Row[] = [];
  for (const acceleration of settings) {
    const memoryId = idOf(
      await api.post('/memories/create', { name: `large-${acceleration ? 'on' : 'off'}`, memoryType: 'vector', acceleration }),
    );
    const started = performance.now();
    await api.post('/memories/add-sessions', { memoryID: memoryId, sessions: sessionIds });
    await untilIndexed(api, memoryId, MESSAGES);
    const buildMs = performance.now() - started;
    progress(`acceleration ${acceleration ? 'on' : 'off'}: index of ${MESSAGES} messages built in ${(buildMs / 1000).toFixed(1)} s`);
    const client = new QueryClient({ url: server.info.url, apiKey: server.info.apiKey, memoryId });
    try {
      await client.sequential(questions.slice(0, WARMUP));
      const asked = Array.from({ length: QUERIES }, (_, i) => questions[(WARMUP + i) % questions.length] ?? '');
      rows.push({ acceleration, buildMs, warm: summarise(await client.sequential(asked)) });
    } finally {
      client.close();
    }
  }
  console.log(report(rows, seededMs));
} finally {
  await server.stop();
}

/** The bench account's id (the memory's owner), from a memory made and deleted for it. */
async function accountOf(api: ReturnType<typeof apiClient>): Promise<string> {
  const probe = (await api.post('/memories/create', { name: 'probe', memoryType: 'vector' })).data as { id: string; userID: string };
  await api.post(`/memories/delete/${probe.id}`, {}).catch(() => undefined);
  return probe.userID;
}

/** Writes the messages into the child's table with the message repository, 32 at a time. */
async function seedMessages(dataDir: string, accountId: string, sessions: readonly string[]): Promise<number> {
  const endpoints = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { dynamodbEndpoint: string; s3Endpoint: string };
  const deps = composeLocalDeps(
    loadConfig({
      ...process.env,
      KMEM_DATA_DIR: dataDir,
      KMEM_DYNAMODB_ENDPOINT: endpoints.dynamodbEndpoint,
      KMEM_S3_ENDPOINT: endpoints.s3Endpoint,
      AWS_REGION: 'local',
    }),
  );
  const started = performance.now();
  const base = Date.parse('2023-01-01T00:00:00Z');
  await mapConcurrently(
    Array.from({ length: MESSAGES }, (_, n) => n),
    32,
    async (n) => {
      const s = n % sessions.length;
      const sequence = Math.floor(n / sessions.length) + 1;
      const message: Message = {
        id: `large-${n}`,
        accountId,
        sessionId: sessions[s] ?? '',
        role: n % 2 ? 'assistant' : 'user',
        content: `${turns[n % turns.length] ?? ''} (${n})`,
        customerUserId: null,
        createdAt: new Date(base + s * 86_400_000 + sequence * 1000).toISOString(),
        updatedAt: new Date().toISOString(),
        sequence,
      };
      await deps.messages.create(message);
    },
  );
  deps.documentClient.destroy();
  return performance.now() - started;
}

async function untilIndexed(api: ReturnType<typeof apiClient>, memoryId: string, expected: number): Promise<void> {
  const deadline = performance.now() + 3_600_000;
  for (;;) {
    const memory = (await api.get(`/memories/get/${memoryId}`)).data as { chunkCount: number };
    if (memory.chunkCount >= expected) return;
    if (performance.now() > deadline)
      throw new Error(`memory ${memoryId} holds ${memory.chunkCount} of ${expected} messages after an hour`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function report(rows: readonly Row[], seededMs: number): string {
  const ms = (value: number) => value.toFixed(1);
  return [
    '## kmem retrieval over a large conversation memory (local runtime)',
    '',
    ...machineFacts(),
    `- command: \`npx tsx bench/conversation-latency.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}\``,
    `- ${MESSAGES} messages (LoCoMo turns, numbered) in ${SESSIONS} sessions, seeded in ${(seededMs / 1000).toFixed(1)} s; one vector memory per row, every session attached in one call`,
    `- warm: ${WARMUP} discarded queries, then ${QUERIES} LoCoMo questions one after another, \`GET /memory/?topK=10&facts=true\` over HTTP`,
    '',
    '| acceleration | index build s | queries | p50 ms | p95 ms | p99 ms | max ms | target (p50 < 15, p99 < 50) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((row) => {
      const met = row.warm.p50 < 15 && row.warm.p99 < 50 ? 'met' : 'not met';
      return `| ${row.acceleration ? 'on' : 'off'} | ${(row.buildMs / 1000).toFixed(1)} | ${row.warm.count} | ${ms(row.warm.p50)} | ${ms(row.warm.p95)} | ${ms(row.warm.p99)} | ${ms(row.warm.max)} | ${met} |`;
    }),
  ].join('\n');
}

function progress(line: string): void {
  process.stderr.write(`[conversation-latency] ${line}\n`);
}
