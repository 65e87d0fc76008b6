/**
 * Model graph extraction through an OpenAI-compatible chat completions server on 127.0.0.1: good
 * answers become extractions that merge into a consistent graph; malformed answers are asked again,
 * then fall back to the offline extractor; throttling and 5xx are retried; tokens are reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  GraphExtractionError,
  ModelGraphExtractor,
  OpenAiChatModel,
  type ModelExtractorOptions,
} from '../../../functions/adapters/graph-extraction';
import { startJsonServer, TEST_RETRY, type Handler, type JsonServer, type RecordedRequest } from './support/json-server';
import {
  chunksAsked,
  CULTURE_CONTEXT,
  CURIE_FILE,
  curieAnswer,
  entityNamed,
  mergeIntoFreshGraph,
  offlineExtraction,
} from './support/samples';
import { chatCompletion } from './support/chat-completion';

let server: JsonServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ChatBody {
  model: string;
  temperature: number;
  max_tokens: number;
  messages: Array<{ role: string; content: string }>;
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
}

const bodyOf = (request: RecordedRequest | undefined): ChatBody => request?.body as ChatBody;

/** Answers every request well. */
const goodAnswer: Handler = (request) =>
  chatCompletion(JSON.stringify(curieAnswer(chunksAsked(bodyOf(request).messages[1]?.content ?? ''))));

async function extractorFor(handler: Handler, options: Partial<ModelExtractorOptions> = {}) {
  server = await startJsonServer(handler);
  const model = new OpenAiChatModel({ baseUrl: `${server.url}/v1/`, model: 'test-model', apiKey: 'sk-test' });
  return new ModelGraphExtractor({ model, retry: TEST_RETRY, ...options });
}

describe('OpenAI-compatible graph extraction', () => {
  it('sends the chunks with a JSON schema and turns the answer into an extraction that merges', async () => {
    const extractor = await extractorFor(goodAnswer);
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);

    const [request] = server?.requests ?? [];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    const body = bodyOf(request);
    expect(body).toMatchObject({ model: 'test-model', temperature: 0, max_tokens: 4096 });
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'knowledge_graph_extraction', strict: true } });
    expect(JSON.stringify(body.response_format.json_schema.schema)).toContain('"enum":["person","place","organization","work","event"');
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages[1]?.content).toContain(CURIE_FILE.chunks[1]?.text);

    expect(result).toMatchObject({ tokensUsed: 321, fellBack: false, calls: 1, offlineChunks: 0 });
    expect(result.reason).toBeUndefined();
    expect(result.extraction.chunks.map((chunk) => [chunk.chunkId, chunk.index])).toEqual([
      ['curie-0', 0],
      ['curie-1', 1],
    ]);
    const first = result.extraction.chunks[0];
    expect(first?.mentions.map((mention) => [mention.surface, mention.kind, mention.type, mention.sentence])).toEqual([
      ['Marie Curie', 'name', 'person', 0],
      ['Nobel Prize in Physics', 'name', 'award', 0],
      ['1903', 'value', 'date', 0],
      ['Curie', 'name', 'person', 1],
      ['Warsaw', 'name', 'place', 1],
    ]);
    const svo = first?.relations.filter((relation) => relation.kind === 'svo') ?? [];
    expect(svo.map((relation) => [relation.subject, relation.predicate, relation.object, relation.fact?.text])).toEqual([
      [0, 'won', 1, 'Marie Curie won the Nobel Prize in Physics in 1903.'],
      [3, 'was born in', 4, 'Curie was born in Warsaw.'],
    ]);

    const { memory, summary, violations } = mergeIntoFreshGraph(result.extraction);
    expect(violations).toEqual([]);
    expect(summary).toMatchObject({ chunks: 2, mentions: 8, facts: 3 });
    const curie = entityNamed(memory, 'Marie Curie');
    expect(curie?.aliases.has('curie')).toBe(true); // "Curie" joined "Marie Curie"
    const predicates = [...memory.graph.relations.values()]
      .filter((relation) => relation.kind === 'svo')
      .map((relation) => relation.predicate);
    expect(predicates.sort()).toEqual(['appointed', 'was born in', 'won']);
    const born = [...memory.graph.facts.values()].find((fact) => fact.predicate === 'was born in');
    expect(born).toMatchObject({ subjectId: curie?.id, objectId: entityNamed(memory, 'Warsaw')?.id, chunkId: 'curie-0', kind: 'fact' });
  });

  it('packs chunks into requests by size and adds up the tokens of every request', async () => {
    const extractor = await extractorFor(goodAnswer, { maxCharsPerRequest: 100 });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(server?.requests.map((request) => chunksAsked(bodyOf(request).messages[1]?.content ?? ''))).toEqual([[0], [1]]);
    expect(result).toMatchObject({ tokensUsed: 642, calls: 2, fellBack: false });
  });

  it('asks again after a malformed answer and keeps the good second answer', async () => {
    const extractor = await extractorFor((request, index) =>
      index === 0 ? chatCompletion('{"chunks": [{"chunk": 0}]}', 50) : goodAnswer(request, index),
    );
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: false, calls: 2, tokensUsed: 371 });
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it.each([
    ['text that is not JSON', 'Sure! Marie Curie is a person.', /not JSON/],
    [
      'a type outside the ontology',
      JSON.stringify({ chunks: [0, 1].map((chunk) => ({ chunk, entities: [{ text: 'Warsaw', type: 'city' }], relations: [] })) }),
      /schema mismatch at chunks\.0\.entities\.0\.type/,
    ],
    [
      'entities that are not in the text',
      JSON.stringify({
        chunks: [0, 1].map((chunk) => ({ chunk, entities: [{ text: 'Albert Einstein', type: 'person' }], relations: [] })),
      }),
      /none of the entities occur/,
    ],
    [
      'an answer for the wrong chunks',
      JSON.stringify({ chunks: [{ chunk: 7, entities: [], relations: [] }] }),
      /chunk 7, which was not asked for/,
    ],
  ])('falls back to the offline extractor after repeated malformed answers: %s', async (_case, content, problem) => {
    const extractor = await extractorFor(() => chatCompletion(content, 40));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 2, tokensUsed: 80, offlineChunks: 2 });
    expect(result.reason).toMatch(/^openai-compatible\/test-model: malformed answer \(/);
    expect(result.reason).toMatch(problem);
    expect(result.reason).toMatch(/offline extractor used for 2 of 2 chunks/);
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it('retries throttling (honouring Retry-After) and server errors, then uses the answer', async () => {
    const extractor = await extractorFor((request, index) => {
      if (index === 0) return { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached' } } };
      if (index === 1) return { status: 503, body: { error: { message: 'overloaded' } } };
      return goodAnswer(request, index);
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(server?.requests).toHaveLength(3);
    expect(result).toMatchObject({ fellBack: false, calls: 3, tokensUsed: 321 });
  });

  it('falls back when throttling outlasts the retries, or throws when told to', async () => {
    const throttled: Handler = () => ({ status: 429, body: { error: { message: 'Rate limit reached' } } });
    const extractor = await extractorFor(throttled);
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 3, tokensUsed: 0 });
    expect(result.reason).toMatch(/service failure: chat completions at .* answered 429/);
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
    await server?.close();

    const strict = await extractorFor(throttled, { onServiceFailure: 'throw' });
    const error = await strict.extract(CURIE_FILE, CULTURE_CONTEXT).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphExtractionError);
    expect(error).toMatchObject({ retryable: true, tokensUsed: 0 });
  });

  it('does not retry a refused key', async () => {
    const extractor = await extractorFor(() => ({ status: 401, body: { error: { message: 'Incorrect API key' } } }));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 1 });
    expect(result.reason).toMatch(/answered 401: .*Incorrect API key/);
  });

  it('splits a batch whose answer was cut at the output limit', async () => {
    const extractor = await extractorFor((request, index) => {
      const asked = chunksAsked(bodyOf(request).messages[1]?.content ?? '');
      return asked.length > 1 ? chatCompletion('{"chunks": [', 4096, 'length') : goodAnswer(request, index);
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(server?.requests.map((request) => chunksAsked(bodyOf(request).messages[1]?.content ?? ''))).toEqual([[0, 1], [0], [1]]);
    expect(result).toMatchObject({ fellBack: false, calls: 3, tokensUsed: 4096 + 321 * 2 });
  });
});
