/**
 * GET /sessions/summary/{id} with an answer model configured (OpenAI-compatible, a double on 127.0.0.1):
 * a local runtime of this file's own whose worker asks the model to revise the summary with each batch
 * of new messages; when the model fails, the extractive summary answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../support/api';
import { type OwnRuntime, startOwnRuntime } from '../support/own-runtime';
import { startJsonServer, type JsonServer, type Reply } from '../contract/graph-extraction/support/json-server';
import { type ChatBody, chatCompletion, chatQuestion, serverError } from '../contract/answers/support/replies';

const KEY = 'kmem_summary_test_key_0123456789ab';
let reply: Reply = serverError;
let model: JsonServer;
let kmem: OwnRuntime;

const call = (method: string, path: string, body?: unknown) => kmem.call(method, path, body);

async function say(sessionID: string, role: string, content: string): Promise<void> {
  expect((await call('POST', '/messages/create', { sessionID, role, content })).status).toBe(200);
}

async function summaryWhen(sessionID: string, count: number): Promise<Json> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { body } = await call('GET', `/sessions/summary/${sessionID}`);
    if (body.data?.messageCount === count) return body.data as Json;
    if (Date.now() > deadline) throw new Error(`the summary did not reach ${count} messages: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const modelSummary = (summary: string, keyPoints: string[]): Reply => chatCompletion(JSON.stringify({ summary, keyPoints }), 300);

beforeAll(async () => {
  model = await startJsonServer(() => reply);
  kmem = await startOwnRuntime(KEY, {
    KMEM_ANSWER_MODEL_PROVIDER: 'openai',
    KMEM_ANSWER_MODEL: 'summary-model',
    KMEM_ANSWER_MODEL_URL: `${model.url}/v1`,
  });
}, 120_000);

afterAll(async () => {
  await kmem?.stop();
  await model?.close();
});

describe('session summaries by the answer model', () => {
  it('asks the model with the new messages, then revises its previous summary; falls back to extractive when it fails', async () => {
    const sessionID = (await call('POST', '/sessions/create', {})).body.data.id as string;
    reply = modelSummary('The user is planning a June trip to Lisbon.', ['Trip to Lisbon in June']);
    await say(sessionID, 'user', 'I want to plan a trip to Lisbon in June with my sister, staying in the old town.');
    const first = await summaryWhen(sessionID, 1);
    expect(first).toMatchObject({
      sessionID,
      summary: 'The user is planning a June trip to Lisbon.',
      keyPoints: ['Trip to Lisbon in June'],
    });
    const asked = model.requests.at(-1);
    expect(asked?.path).toBe('/v1/chat/completions');
    expect((asked?.body as ChatBody).response_format.json_schema.name).toBe('session_summary');
    expect(chatQuestion(asked)).toMatch(/New messages:\n\[[^\]]+\] user: I want to plan a trip to Lisbon/);
    expect(chatQuestion(asked)).not.toMatch(/Previous summary/);

    reply = modelSummary('The user is planning a June trip to Lisbon; the old town hotel is booked.', ['Trip in June', 'Hotel booked']);
    await say(sessionID, 'assistant', 'Done: the old town hotel in Lisbon is booked for the first week of June.');
    const second = await summaryWhen(sessionID, 2);
    expect(second.summary).toBe('The user is planning a June trip to Lisbon; the old town hotel is booked.');
    const revised = chatQuestion(model.requests.at(-1));
    expect(revised).toMatch(/^Previous summary:\nThe user is planning a June trip to Lisbon\.\nKey points:\n- Trip to Lisbon in June/);
    expect(revised).toMatch(/assistant: Done: the old town hotel/);
    expect(revised).not.toMatch(/user: I want to plan/); // earlier messages are not sent again

    reply = serverError;
    await say(sessionID, 'user', 'Great, and please find train tickets from Porto to Lisbon for the same week in June.');
    const third = await summaryWhen(sessionID, 3);
    expect(third.summary).not.toMatch(/is booked\.$/);
    expect(third.summary).toMatch(/Lisbon/); // the extractive summary, from the messages themselves
    expect(third.keyPoints.some((point: string) => /train tickets/.test(point))).toBe(true);
  }, 180_000);
});
