/**
 * A graph memory ingested with a model as the graph extractor (an OpenAI-compatible server on 127.0.0.1
 * that answers nonsense): the worker falls back to the offline extractor, the graph is still built, and
 * the tokens the model spent are charged to the account's budget with the files' tokens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { memoryConfig, memoryDeps } from '../support/memory';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';

const TOKENS_PER_ANSWER = 1234;
let calls = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    calls += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: 'not json at all' }, finish_reason: 'stop' }],
        usage: { total_tokens: TOKENS_PER_ANSWER },
      }),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

const settings = {
  KMEM_GRAPH_EXTRACTOR: 'openai',
  KMEM_GRAPH_EXTRACTOR_MODEL: 'test-model',
  KMEM_GRAPH_EXTRACTOR_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  KMEM_GRAPH_WORD_VECTORS: 'false',
  KMEM_EMBEDDER: 'none',
};

const deps = memoryDeps(memoryConfig(settings));
afterAll(() => {
  server.close();
});

const drain = () => drainQueue(deps);

describe('managed graph extraction', () => {
  let accountId = '';
  beforeAll(async () => {
    accountId = (await createAccount(deps, `managed-${process.pid}-${Date.now()}`)).account.id;
  });

  it('falls back to the offline extractor on malformed answers and charges the model tokens', async () => {
    const text = 'Ada Lovelace wrote the first program for the Analytical Engine. Charles Babbage designed the Analytical Engine.';
    const upload = await uploadFile(deps, accountId, { name: 'ada.txt', contentType: 'text/plain', bytes: Buffer.from(text) });
    const file = await createFile(deps, accountId, { name: 'ada.txt', key: upload.key, fileType: 'text' });
    await drain();
    const memory = await createMemory(deps, accountId, { name: 'g', memoryType: 'graph', ontology: 'culture', factExtraction: true });
    await addFiles(deps, accountId, memory.id, [file.id]);
    const before = (await deps.accounts.get(accountId))?.tokensRemaining ?? 0;
    await startIngestion(deps, accountId, memory.id);
    await drain();

    const after = await deps.memories.get(accountId, memory.id);
    expect(after).toMatchObject({ step: 'ready' });
    expect(after?.entityCount).toBeGreaterThan(1);
    expect(calls).toBeGreaterThan(0);
    const fileTokens = (await deps.files.get(accountId, file.id))?.tokens ?? 0;
    const spent = before - ((await deps.accounts.get(accountId))?.tokensRemaining ?? 0);
    expect(spent).toBe(fileTokens + calls * TOKENS_PER_ANSWER);
  }, 60_000);
});
