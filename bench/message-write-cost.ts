/**
 * What one new message costs as an account grows, with the segmented message index (docs/segments.md,
 * "The account's message index"): for accounts of several sizes, one message is added to a session of
 * `--session` messages and timed until a warm container's next GET /messages/search finds it (three times,
 * one after the other: medians), with the bytes the `messages.sync` build writes and the bytes the warm
 * container reads. In process, on the stores in memory and the offline word-vector embedder; the messages
 * are written, built and searched by the service's own use cases and worker code (createMessage,
 * syncMessageIndex, searchMessages over an IndexCache). No merge runs between the rounds.
 *
 *   npm run bench:message-write-cost [-- --sizes 1000,100000 --session 100 --words 20]
 *
 * Prints a markdown table. Each account is filled first (sessions of `--session` messages) and built in
 * one sync: that bulk build is what every sync cost before segments (one whole rebuild of the account).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localConfig } from '../functions/config';
import { syncMessageIndex } from '../functions/core/ingest/message-index';
import { IndexCache } from '../functions/core/stored-index/index-cache';
import { createAccount } from '../functions/core/use-cases/accounts';
import { searchMessages } from '../functions/core/use-cases/message-search';
import { createMessage } from '../functions/core/use-cases/messages';
import { createSession } from '../functions/core/use-cases/sessions';
import { composeMemoryDeps } from '../functions/local/compose';
import { composeWorkerDeps } from '../functions/worker/deps';
import { countedObjects } from './support/in-process-stores';
import { syntheticText } from './support/synthetic-text';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000' },
    session: { type: 'string', default: '100' },
    words: { type: 'string', default: '20' },
  },
});
const sizes = (values.sizes ?? '')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const perSession = Number(values.session);
const words = Number(values.words);
const ROUNDS = 3;

/** A message of `words` vocabulary words, each followed by a number (the words have vectors: an HNSW graph over them is a real one). */
const messageText = (seed: number): string => syntheticText(seed, words).replace(/([a-z])(\d)/g, '$1 $2');

interface Round {
  searchable: number;
  build: number;
  written: number;
  warmRead: number;
}

async function measure(size: number): Promise<string> {
  const config = localConfig({
    KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-message-write-cost-')),
    AWS_REGION: 'local',
    KMEM_GRAPH_WORD_VECTORS: 'false',
  });
  const base = composeMemoryDeps(config);
  const queue = { send: async () => undefined }; // no merge runs: the rounds measure the sync alone
  const api = { ...base, queue };
  const store = countedObjects(base.objects);
  const worker = { ...composeWorkerDeps(base), objects: store.objects, queue };
  const accountId = (await createAccount(base, `message-write-cost-${size}-${Date.now()}`)).account.id;
  const filling = performance.now();
  const sessions: string[] = [];
  for (let m = 0; m < size; m++) {
    if (m % perSession === 0) sessions.push((await createSession(api, accountId, {})).id);
    const sessionId = sessions[sessions.length - 1] ?? '';
    await createMessage(api, accountId, { sessionId, role: m % 2 ? 'assistant' : 'user', content: messageText(m) });
  }
  console.error(`${size} messages written in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
  let holder = 0;
  const sync = () => syncMessageIndex(worker, { kind: 'messages.sync', accountId, sessionId: 'any' }, `bench-${++holder}`);
  let started = performance.now();
  await sync();
  const bulkSeconds = (performance.now() - started) / 1000;
  console.error(`built in ${bulkSeconds.toFixed(1)} s`);
  const warm = new IndexCache(store.objects, 4);
  const search = (query: string) => searchMessages({ ...base, indexes: warm, indexing: worker.indexing }, accountId, { query, topK: 5 });
  await search('warm up');

  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const word = `zebracode${round}`;
    const content = `the ${word} message names a quasar lighthouse nobody else mentions`;
    store.written.bytes = 0;
    started = performance.now();
    await createMessage(api, accountId, { sessionId: sessions[round % sessions.length] ?? '', role: 'user', content });
    await sync();
    const written = store.written.bytes;
    const build = (performance.now() - started) / 1000;
    store.read.bytes = 0;
    const found = await search(`${word} quasar lighthouse`);
    const searchable = (performance.now() - started) / 1000;
    if (found[0]?.message.content !== content) throw new Error('the new message was not found');
    rounds.push({ searchable, build, written, warmRead: store.read.bytes });
  }
  const middle = (pick: (round: Round) => number) => rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)] ?? 0;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(3);
  const columns = [
    size.toLocaleString('en'),
    perSession.toLocaleString('en'),
    bulkSeconds.toFixed(1),
    middle((round) => round.searchable).toFixed(2),
    middle((round) => round.build).toFixed(2),
    middle((round) => round.searchable - round.build).toFixed(3),
    mb(middle((round) => round.written)),
    mb(middle((round) => round.warmRead)),
  ];
  return `| ${columns.join(' | ')} |`;
}

console.log(
  '| messages in account | messages in the session | whole build (s) | one new message searchable, warm (s) | of which create and sync (s) | of which the warm search (s) | bytes written (MB) | read by the warm container (MB) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const size of sizes) console.log(await measure(size));
