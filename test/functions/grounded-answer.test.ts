/**
 * Grounded answers through the real retrieval path: files ingested by the worker into the test
 * runtime's stores, the memory queried with `assisted=true` and an answer model configured (an
 * OpenAI-compatible server on 127.0.0.1). A cited answer comes first and the extracts it cites follow;
 * an uncited or out-of-range answer, a failing model or an exhausted budget leave the extracts; the
 * model's tokens are charged to the account exactly once; no call without `assisted` or evidence.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { testConfig, testDeps } from '../support/stores';
import { chatAnswer, chatCompletion, chatQuestion, serverError } from '../contract/answers/support/replies';
import { type Reply, startJsonServer } from '../contract/graph-extraction/support/json-server';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { queryMemory } from '../../functions/core/use-cases/query-memory';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';

let reply: Reply = chatAnswer('unset');
const server = await startJsonServer(() => reply);
const requests = server.requests;

const settings = {
  KMEM_ANSWER_MODEL_PROVIDER: 'openai',
  KMEM_ANSWER_MODEL: 'test-model',
  KMEM_ANSWER_MODEL_URL: `${server.url}/v1`,
  KMEM_GRAPH_WORD_VECTORS: 'false',
  KMEM_EMBEDDER: 'none',
};

const base = testDeps(testConfig(settings));
/** Composed as the local runtime composes: with the retrieval route's index cache, embedder and answer model. */
const deps = base;
afterAll(async () => {
  await server.close();
  base.documentClient.destroy();
});

const DOCS: Record<string, string> = {
  'institute.txt': 'The Radium Institute in Paris was founded in 1909. It later became the Curie Institute.',
  'curie.txt': 'Marie Curie directed the physics laboratory of the Radium Institute. She won two Nobel Prizes.',
  'gardens.txt': 'Tomatoes grow best in warm sunny gardens with regular watering.',
};
const QUESTION = 'When was the Radium Institute founded?';

const drain = () => drainQueue(base);

let accountId = '';
let memoryId = '';
const remaining = async (): Promise<number> => (await base.accounts.get(accountId))?.tokensRemaining ?? Number.NaN;
const ask = (extra: { assisted?: boolean; query?: string } = {}) =>
  queryMemory(deps, accountId, {
    memoryId,
    query: extra.query ?? QUESTION,
    topK: 2,
    facts: true,
    assisted: extra.assisted ?? true,
  });

beforeAll(async () => {
  accountId = (await createAccount(base, `answers-${process.pid}-${Date.now()}`)).account.id;
  const fileIds: string[] = [];
  for (const [name, text] of Object.entries(DOCS)) {
    const upload = await uploadFile(base, accountId, { name, contentType: 'text/plain', bytes: Buffer.from(text) });
    fileIds.push((await createFile(base, accountId, { name, key: upload.key, fileType: 'text' })).id);
  }
  await drain();
  memoryId = (await createMemory(base, accountId, { name: 'institutes', memoryType: 'vector' })).id;
  await addFiles(base, accountId, memoryId, fileIds);
  await startIngestion(base, accountId, memoryId);
  await drain();
  expect((await base.memories.get(accountId, memoryId))?.step).toBe('ready');
}, 60_000);

beforeEach(() => {
  requests.length = 0;
});

describe('grounded answers', () => {
  it('puts a cited answer first, the extracts it cites after it, and charges the tokens once', async () => {
    const offline = await retrieveFromMemory(deps, accountId, {
      memoryId,
      query: QUESTION,
      topK: 2,
      facts: true,
      assisted: true,
    });
    expect(offline.payload).toHaveLength(2);
    expect(offline.payload[0]?.content).toMatch(/founded in 1909/);
    reply = chatAnswer('The Radium Institute was founded in 1909 [1].', 432);
    const before = await remaining();

    const { retrieval: answer, report } = await ask();

    expect(answer.payload).toEqual([
      { content: 'The Radium Institute was founded in 1909 [1].', score: offline.payload[0]?.score },
      ...offline.payload,
    ]);
    expect(answer.facts).toEqual(offline.facts);
    expect(answer.sources).toEqual(offline.sources);
    expect(report).toMatchObject({
      outcome: 'answered',
      model: 'openai-compatible/test-model',
      tokensUsed: 432,
      evidence: 2,
      citations: [1],
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(chatQuestion(requests[0])).toBe(
      `Question: ${QUESTION}\n\nEvidence:\n[1] ${offline.payload[0]?.content}\n\n[2] ${offline.payload[1]?.content}`,
    );
    expect(before - (await remaining())).toBe(432);
    const item = await base.documentClient.send(new GetCommand({ TableName: base.config.tableName, Key: keys.account(accountId) }));
    expect([...((item.Item?.refundedJobs as Set<string> | undefined) ?? [])].filter((id) => id.startsWith('answer-'))).toEqual([]);
  });

  it.each([
    ['an answer citing nothing', chatAnswer('It was founded in 1909.', 150), /cites no evidence item/, 150],
    [
      'an answer citing an item that is not there',
      chatAnswer('It was founded in 1909 [7].', 150),
      /cites \[7\], outside the 2 evidence items/,
      150,
    ],
    ['an empty answer (the evidence does not answer)', chatAnswer('', 60), /empty answer/, 60],
    ['an answer that is not the {answer} object', chatCompletion(JSON.stringify({ reply: 'x [1]' }), 70), /not the \{answer\} object/, 70],
    ['a model answering 500', serverError, /answered 500/, 0],
  ])('returns the extracts for %s', async (_, answerReply, reason, tokens) => {
    const offline = await retrieveFromMemory(deps, accountId, {
      memoryId,
      query: QUESTION,
      topK: 2,
      facts: true,
      assisted: true,
    });
    reply = answerReply;
    const before = await remaining();
    const { retrieval: answer, report } = await ask();
    expect(answer).toEqual(offline);
    expect(report).toMatchObject({ outcome: 'fell-back', reason: expect.stringMatching(reason), tokensUsed: tokens });
    expect(before - (await remaining())).toBe(tokens);
    expect(requests.length).toBe(answerReply === serverError ? 3 : 1);
  });

  it('calls no model without assisted or without evidence', async () => {
    reply = chatAnswer('Never asked [1].');
    const raw = await ask({ assisted: false });
    expect(raw.report).toBeUndefined();
    expect(raw.retrieval.payload[0]?.content).toBe(DOCS['institute.txt']);
    const nothing = await ask({ query: 'quantum chromodynamics lattice' });
    expect(nothing).toEqual({ retrieval: { payload: [], facts: [], sources: [] } });
    expect(requests).toHaveLength(0);
  });

  it('returns the extracts without a call when the budget cannot cover the answer', async () => {
    const left = await remaining();
    await base.accounts.reserveTokens(accountId, left - 100);
    // the budget goes back after the test: the other tests of the file charge answers from it, in any order
    onTestFinished(() => base.accounts.refundTokens(accountId, left - 100, `grounded-answer-budget-${Date.now()}`));
    reply = chatAnswer('Too expensive [1].');
    const offline = await retrieveFromMemory(deps, accountId, {
      memoryId,
      query: QUESTION,
      topK: 2,
      facts: true,
      assisted: true,
    });
    const { retrieval: answer, report } = await ask();
    expect(answer).toEqual(offline);
    expect(report).toMatchObject({ outcome: 'fell-back', reason: expect.stringMatching(/token budget cannot cover/), tokensUsed: 0 });
    expect(requests).toHaveLength(0);
    expect(await remaining()).toBe(100);
  });
});
