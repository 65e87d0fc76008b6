/**
 * Model graph extraction through Amazon Bedrock's Converse API, against a server on 127.0.0.1 speaking
 * its REST JSON protocol (`POST /model/{modelId}/converse`, errors by `x-amzn-errortype`): the schema
 * goes as a forced tool (or as an output format), answers merge, throttling is retried, malformed tool
 * input falls back, `usage.totalTokens` is reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BedrockConverseModel, ModelGraphExtractor, type BedrockConverseModelOptions } from '../../../functions/adapters/graph-extraction';
import { ontologySchema } from '../../../functions/engine/graph/ontology';
import { startJsonServer, TEST_CREDENTIALS, TEST_RETRY, type Handler, type JsonServer, type RecordedRequest } from './support/json-server';
import {
  chunksAsked,
  CULTURE_CONTEXT,
  CURIE_FILE,
  curieAnswer,
  entityNamed,
  mergeIntoFreshGraph,
  offlineExtraction,
} from './support/samples';

const MODEL_ID = 'anthropic.claude-3-5-haiku-20241022-v1:0';
let server: JsonServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ConverseBody {
  system: Array<{ text: string }>;
  messages: Array<{ role: string; content: Array<{ text: string }> }>;
  inferenceConfig: { maxTokens: number; temperature: number };
  toolConfig?: {
    tools: Array<{ toolSpec: { name: string; inputSchema: { json: Record<string, unknown> } } }>;
    toolChoice: { tool: { name: string } };
  };
  outputConfig?: { textFormat: { type: string; structure: { jsonSchema: { name: string; schema: string } } } };
}

const bodyOf = (request: RecordedRequest | undefined): ConverseBody => request?.body as ConverseBody;
const askedIn = (request: RecordedRequest): number[] => chunksAsked(bodyOf(request).messages[0]?.content[0]?.text ?? '');

/** A Converse response with these content blocks. */
function converse(content: unknown[], totalTokens = 500, stopReason = 'tool_use') {
  return {
    body: {
      output: { message: { role: 'assistant', content } },
      stopReason,
      usage: { inputTokens: totalTokens - 100, outputTokens: 100, totalTokens },
      metrics: { latencyMs: 12 },
    },
  };
}

const toolAnswer = (input: unknown, totalTokens?: number) =>
  converse([{ toolUse: { toolUseId: 'tooluse_1', name: 'knowledge_graph_extraction', input } }], totalTokens);

async function extractorFor(handler: Handler, options: Partial<BedrockConverseModelOptions> = {}) {
  server = await startJsonServer(handler);
  const model = new BedrockConverseModel({
    modelId: MODEL_ID,
    region: 'us-east-1',
    endpoint: server.url,
    credentials: TEST_CREDENTIALS,
    ...options,
  });
  return new ModelGraphExtractor({ model, retry: TEST_RETRY });
}

describe('Amazon Bedrock Converse graph extraction', () => {
  it('forces the schema as a tool, signs the request, and merges the tool input', async () => {
    const extractor = await extractorFor((request) => toolAnswer(curieAnswer(askedIn(request))));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);

    const [request] = server?.requests ?? [];
    expect(request).toMatchObject({ method: 'POST', path: `/model/${MODEL_ID}/converse` });
    expect(String(request?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
    );
    const body = bodyOf(request);
    expect(body.inferenceConfig).toEqual({ maxTokens: 4096, temperature: 0 });
    expect(body.system[0]?.text).toContain('- award: A prize, award or honour');
    expect(body.toolConfig?.toolChoice).toEqual({ tool: { name: 'knowledge_graph_extraction' } });
    expect(body.toolConfig?.tools[0]?.toolSpec.inputSchema.json).toMatchObject({
      type: 'object',
      required: ['chunks'],
      additionalProperties: false,
    });

    expect(result).toMatchObject({ tokensUsed: 500, fellBack: false, calls: 1, offlineChunks: 0 });
    const { memory, summary, violations } = mergeIntoFreshGraph(result.extraction);
    expect(violations).toEqual([]);
    expect(summary).toMatchObject({ mentions: 8, facts: 3 });
    expect(entityNamed(memory, 'Nobel Prize in Physics')?.type).toBe('award');
  });

  it('can ask for structured output instead and read the answer text', async () => {
    const extractor = await extractorFor(
      (request) => converse([{ text: JSON.stringify(curieAnswer(askedIn(request))) }], 420, 'end_turn'),
      { outputMode: 'output-format' },
    );
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    const format = bodyOf(server?.requests[0]).outputConfig?.textFormat;
    expect(format).toMatchObject({ type: 'json_schema', structure: { jsonSchema: { name: 'knowledge_graph_extraction' } } });
    expect(JSON.parse(format?.structure.jsonSchema.schema ?? '{}')).toMatchObject({ type: 'object', required: ['chunks'] });
    expect(bodyOf(server?.requests[0]).toolConfig).toBeUndefined();
    expect(result).toMatchObject({ tokensUsed: 420, fellBack: false });
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it('retries ThrottlingException and ServiceUnavailableException', async () => {
    const extractor = await extractorFor((request, index) => {
      if (index === 0)
        return {
          status: 429,
          headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
          body: { message: 'Too many requests, please wait before trying again.' },
        };
      if (index === 1)
        return { status: 503, headers: { 'x-amzn-errortype': 'ServiceUnavailableException' }, body: { message: 'Service unavailable' } };
      return toolAnswer(curieAnswer(askedIn(request)));
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(server?.requests).toHaveLength(3);
    expect(result).toMatchObject({ fellBack: false, calls: 3, tokensUsed: 500 });
  });

  it('does not retry a validation error and falls back with its message', async () => {
    const extractor = await extractorFor(() => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'ValidationException' },
      body: { message: 'The provided model identifier is invalid.' },
    }));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 1, tokensUsed: 0 });
    expect(result.reason).toMatch(
      /Amazon Bedrock Converse .* failed \(ValidationException, HTTP 400\): The provided model identifier is invalid/,
    );
  });

  it('falls back to the offline extractor on malformed tool input, counting the tokens spent', async () => {
    const extractor = await extractorFor(() => toolAnswer({ entities: ['Marie Curie'] }, 300));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 2, tokensUsed: 600 });
    expect(result.reason).toMatch(/^bedrock\/anthropic\.claude-3-5-haiku-20241022-v1:0: malformed answer \(schema mismatch at chunks/);
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
  });

  it('keys ontology pattern types as the offline extractor does (support requests)', async () => {
    const file = {
      fileId: 'ticket-1',
      chunks: [
        { id: 'ticket-1-0', text: 'Version 4.2 of Acme Sync crashes with ERR_SYNC_TIMEOUT. Restarting the sync service fixes the crash.' },
      ],
    };
    const answer = {
      chunks: [
        {
          chunk: 0,
          entities: [
            { text: 'Version 4.2', type: 'version' },
            { text: 'Acme Sync', type: 'product' },
            { text: 'ERR_SYNC_TIMEOUT', type: 'error' },
            { text: 'sync service', type: 'feature' },
            { text: 'crash', type: 'error' },
          ],
          relations: [
            {
              subject: 'Acme Sync',
              predicate: 'crashes with',
              object: 'ERR_SYNC_TIMEOUT',
              sentence: 'Version 4.2 of Acme Sync crashes with ERR_SYNC_TIMEOUT.',
              kind: 'fact',
            },
            {
              subject: 'sync service',
              predicate: 'fixes',
              object: 'crash',
              sentence: 'Restarting the sync service fixes the crash.',
              kind: 'resolution',
            },
          ],
        },
      ],
    };
    const extractor = await extractorFor(() => toolAnswer(answer));
    const result = await extractor.extract(file, { schema: ontologySchema('support_requests'), factExtraction: true });
    const mentions = result.extraction.chunks[0]?.mentions ?? [];
    expect(mentions.map((mention) => [mention.surface, mention.key, mention.kind, mention.type])).toEqual([
      ['Version 4.2', '4.2', 'name', 'version'],
      ['Acme Sync', 'acme sync', 'name', 'product'],
      ['ERR_SYNC_TIMEOUT', 'err sync timeout', 'name', 'error'],
      ['sync service', 'sync service', 'phrase', 'feature'],
      ['crash', 'crash', 'phrase', 'error'],
    ]);
    const { memory, violations } = mergeIntoFreshGraph(result.extraction, file, 'support_requests');
    expect(violations).toEqual([]);
    expect([...memory.graph.facts.values()].map((fact) => [fact.predicate, fact.kind, fact.text])).toEqual([
      ['crashes with', 'fact', 'Version 4.2 of Acme Sync crashes with ERR_SYNC_TIMEOUT.'],
      ['fixes', 'resolution', 'Restarting the sync service fixes the crash.'],
    ]);
  });
});
