/**
 * The answer generator against servers on 127.0.0.1 speaking the two real protocols: OpenAI chat
 * completions (JSON schema response format) and Bedrock Converse (REST JSON, SigV4, a forced tool).
 * Good answers come back with the tokens billed; 5xx is retried then given up; refusals, cut-off and
 * malformed answers and a model slower than the deadline are `AnswerModelError`s.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelAnswerGenerator } from '../../../functions/adapters/answers/model-answer-generator';
import { answerGeneratorFromSettings } from '../../../functions/adapters/providers/answer-generator-from-settings';
import { BedrockConverseModel } from '../../../functions/adapters/graph-extraction/bedrock-converse';
import { OpenAiChatModel } from '../../../functions/adapters/graph-extraction/openai-chat';
import { AnswerModelError, type EvidenceItem } from '../../../functions/core/answers/ports';
import { startJsonServer, TEST_CREDENTIALS, TEST_RETRY, type Handler, type JsonServer } from '../graph-extraction/support/json-server';
import { chatAnswer, chatCompletion, type ChatBody, converseAnswer, type ConverseBody, serverError } from './support/replies';

const EVIDENCE: EvidenceItem[] = [
  { n: 1, content: 'Radium Institute: The Radium Institute was founded in 1909.' },
  { n: 2, content: 'Marie Curie worked at the Radium Institute in Paris.' },
];
const QUESTION = 'When was the institute where Marie Curie worked founded?';

let server: JsonServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openAi(handler: Handler, timeoutMs = 5_000): Promise<ModelAnswerGenerator> {
  server = await startJsonServer(handler);
  const model = new OpenAiChatModel({ baseUrl: `${server.url}/v1`, model: 'test-model', apiKey: 'sk-test', timeoutMs });
  return new ModelAnswerGenerator({ model, retry: TEST_RETRY, timeoutMs });
}

async function bedrock(handler: Handler): Promise<ModelAnswerGenerator> {
  server = await startJsonServer(handler);
  const model = new BedrockConverseModel({
    modelId: 'us.amazon.nova-lite-v1:0',
    region: 'us-east-1',
    endpoint: server.url,
    credentials: TEST_CREDENTIALS,
  });
  return new ModelAnswerGenerator({ model, retry: TEST_RETRY });
}

describe('answers through OpenAI-compatible chat completions', () => {
  it('sends the numbered evidence with the {answer} schema and returns the answer and its tokens', async () => {
    const generator = await openAi(() => chatAnswer('It was founded in 1909 [1][2].', 777));
    const answer = await generator.answer(QUESTION, EVIDENCE);
    expect(answer).toEqual({ text: 'It was founded in 1909 [1][2].', tokensUsed: 777 });

    const [request] = server?.requests ?? [];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-test' } });
    const body = request?.body as ChatBody;
    expect(body.messages[0]?.content).toMatch(/only the numbered evidence/);
    expect(body.messages[1]?.content).toBe(
      `Question: ${QUESTION}\n\nEvidence:\n[1] ${EVIDENCE[0]?.content}\n\n[2] ${EVIDENCE[1]?.content}`,
    );
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'grounded_answer', strict: true } });
    expect(body.response_format.json_schema.schema).toMatchObject({ required: ['answer'], additionalProperties: false });
    expect(body.max_tokens).toBe(1024);
    expect(generator.maxTokens(QUESTION, EVIDENCE)).toBeGreaterThan(1024 + (QUESTION.length + 100) / 2.5);
  });

  it('takes a plain-text answer as is (endpoints that ignore the response format)', async () => {
    const generator = await openAi(() => chatCompletion('Founded in 1909 [1].'));
    expect((await generator.answer(QUESTION, EVIDENCE)).text).toBe('Founded in 1909 [1].');
  });

  it('retries a 500 and gives up with an AnswerModelError', async () => {
    const generator = await openAi(() => serverError);
    await expect(generator.answer(QUESTION, EVIDENCE)).rejects.toThrow(AnswerModelError);
    expect(server?.requests).toHaveLength(TEST_RETRY.maxAttempts);
  });

  it('rejects refusals, cut-off and malformed answers, charging their tokens', async () => {
    const replies = [
      {
        body: {
          choices: [{ message: { content: null, refusal: 'I cannot help with that' }, finish_reason: 'stop' }],
          usage: { total_tokens: 40 },
        },
      },
      chatCompletion('{"answer": "It was founded in', 1100, 'length'),
      chatCompletion(JSON.stringify({ reply: 'wrong field' }), 90),
    ];
    const generator = await openAi((_, index) => replies[index] ?? serverError);
    const problems: Array<[RegExp, number]> = [
      [/refused: I cannot help/, 40],
      [/cut at the output limit/, 1100],
      [/not the \{answer\} object/, 90],
    ];
    for (const [message, tokens] of problems) {
      const failure = await generator.answer(QUESTION, EVIDENCE).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnswerModelError);
      expect((failure as AnswerModelError).message).toMatch(message);
      expect((failure as AnswerModelError).tokensUsed).toBe(tokens);
    }
  });

  it('gives up when the model does not answer within the deadline', async () => {
    const silent = createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const model = new OpenAiChatModel({
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
        model: 'm',
        timeoutMs: 300,
      });
      const generator = new ModelAnswerGenerator({ model, retry: TEST_RETRY, timeoutMs: 300 });
      const started = Date.now();
      await expect(generator.answer(QUESTION, EVIDENCE)).rejects.toThrow(/no answer within 300 ms|aborted|timeout/i);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('keeps the prompt bounded whatever the number and size of the items', async () => {
    const generator = await openAi(() => chatAnswer('x [1]'));
    const many = Array.from({ length: 100 }, (_, i) => ({ n: i + 1, content: `item ${i} `.repeat(500) }));
    await generator.answer(QUESTION, many);
    const user = (server?.requests[0]?.body as ChatBody).messages[1]?.content ?? '';
    expect(user.length).toBeLessThan(60_000);
    expect(user).toContain('\n\n[100] item 99');
  });
});

describe('answers through Amazon Bedrock Converse', () => {
  it('forces the grounded_answer tool, signs the request and reads the tool input', async () => {
    const generator = await bedrock(() => converseAnswer('It was founded in 1909 [1].', 640));
    expect(generator.name).toBe('bedrock/us.amazon.nova-lite-v1:0');
    expect(await generator.answer(QUESTION, EVIDENCE)).toEqual({ text: 'It was founded in 1909 [1].', tokensUsed: 640 });

    const [request] = server?.requests ?? [];
    expect(request).toMatchObject({ method: 'POST', path: '/model/us.amazon.nova-lite-v1:0/converse' });
    expect(String(request?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
    );
    const body = request?.body as ConverseBody;
    expect(body.toolConfig.toolChoice).toEqual({ tool: { name: 'grounded_answer' } });
    expect(body.toolConfig.tools[0]?.toolSpec.description).toMatch(/answer to the question/);
    expect(body.messages[0]?.content[0]?.text).toContain(`[2] ${EVIDENCE[1]?.content}`);
    expect(body.inferenceConfig).toEqual({ maxTokens: 1024, temperature: 0 });
  });

  it('retries throttling and server errors, then gives up', async () => {
    const generator = await bedrock(() => serverError);
    await expect(generator.answer(QUESTION, EVIDENCE)).rejects.toThrow(/Amazon Bedrock Converse .*failed/);
    expect(server?.requests).toHaveLength(TEST_RETRY.maxAttempts);
  });

  it('is what the factory makes from the configuration', () => {
    expect(answerGeneratorFromSettings({ kind: 'none' }, { region: 'eu-west-1' })).toBeNull();
    const openai = answerGeneratorFromSettings(
      { kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', timeoutMs: 1000 },
      { region: 'eu-west-1' },
    );
    expect(openai?.name).toBe('openai-compatible/gpt-4o-mini');
    const converse = answerGeneratorFromSettings(
      { kind: 'bedrock', model: 'anthropic.claude-3-5-haiku-20241022-v1:0', timeoutMs: 1000 },
      { region: 'eu-west-1' },
    );
    expect(converse?.name).toBe('bedrock/anthropic.claude-3-5-haiku-20241022-v1:0');
  });
});
