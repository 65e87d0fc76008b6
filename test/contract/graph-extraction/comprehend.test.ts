/**
 * Graph extraction with Amazon Comprehend DetectEntities, against a server on 127.0.0.1 speaking its
 * AWS JSON 1.1 protocol (`X-Amz-Target: Comprehend_20171127.DetectEntities`, errors by `__type`):
 * Comprehend's entities become the mentions (typed into the ontology), relations and facts come from
 * the offline scan over them; throttling is retried; a chunk that keeps failing is made offline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ComprehendGraphExtractor, type ComprehendExtractorOptions } from '../../../functions/adapters/graph-extraction';
import { startJsonServer, TEST_CREDENTIALS, TEST_RETRY, type Handler, type JsonServer, type RecordedRequest } from './support/json-server';
import { CULTURE_CONTEXT, CURIE_FILE, entityNamed, mergeIntoFreshGraph, offlineExtraction } from './support/samples';

let server: JsonServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What Comprehend finds in each sample text: [text, type, score, which occurrence (default the first)]. */
const FINDINGS: Record<string, Array<[string, string, number, number?]>> = {
  'Marie Curie won': [
    ['Marie Curie', 'PERSON', 0.99],
    ['Nobel Prize in Physics', 'OTHER', 0.91],
    ['Physics', 'OTHER', 0.3],
    ['1903', 'DATE', 0.99],
    ['Curie', 'PERSON', 0.97, 1],
    ['Warsaw', 'LOCATION', 0.99],
  ],
  'The University': [
    ['University of Paris', 'ORGANIZATION', 0.98],
    ['Marie Curie', 'PERSON', 0.99],
    ['1906', 'DATE', 0.99],
    ['one', 'QUANTITY', 0.9],
  ],
  '🎉 Marie': [
    ['Marie Curie', 'PERSON', 0.99],
    ['Paris', 'LOCATION', 0.99],
  ],
};

const textOf = (request: RecordedRequest): string => (request.body as { Text: string }).Text;

/** DetectEntities output for a text, offsets counted in code points as Comprehend counts them. */
function detect(text: string) {
  const prefix = Object.keys(FINDINGS).find((start) => text.startsWith(start));
  const entities = (prefix === undefined ? [] : (FINDINGS[prefix] ?? [])).map(([found, type, score, occurrence = 0]) => {
    let at = text.indexOf(found);
    for (let skip = 0; skip < occurrence; skip++) at = text.indexOf(found, at + 1);
    const begin = [...text.slice(0, at)].length;
    return { Text: found, Type: type, Score: score, BeginOffset: begin, EndOffset: begin + [...found].length };
  });
  return { body: { Entities: entities }, headers: { 'content-type': 'application/x-amz-json-1.1' } };
}

const awsError = (status: number, type: string, message: string) => ({
  status,
  body: { __type: type, message },
  headers: { 'content-type': 'application/x-amz-json-1.1' },
});

async function extractorFor(handler: Handler, options: Partial<ComprehendExtractorOptions> = {}) {
  server = await startJsonServer(handler);
  return new ComprehendGraphExtractor({
    region: 'eu-west-1',
    endpoint: server.url,
    credentials: TEST_CREDENTIALS,
    retry: TEST_RETRY,
    ...options,
  });
}

describe('Amazon Comprehend graph extraction', () => {
  it('uses Comprehend entities as the mentions and the offline scan for relations and facts', async () => {
    const extractor = await extractorFor((request) => detect(textOf(request)));
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);

    const request = server?.requests.find((seen) => textOf(seen) === CURIE_FILE.chunks[0]?.text);
    expect(request).toMatchObject({ method: 'POST', path: '/', body: { Text: CURIE_FILE.chunks[0]?.text, LanguageCode: 'en' } });
    expect(request?.headers['x-amz-target']).toBe('Comprehend_20171127.DetectEntities');
    expect(String(request?.headers.authorization)).toMatch(/Credential=AKIDTEST\/\d{8}\/eu-west-1\/comprehend\/aws4_request/);

    expect(result).toMatchObject({ tokensUsed: 0, fellBack: false, calls: 2, offlineChunks: 0, billedUnits: 6 });
    expect(result.extraction.chunks.map((chunk) => chunk.mentions.map((mention) => [mention.surface, mention.type]))).toEqual([
      // "Nobel Prize in Physics" is OTHER to Comprehend: the offline type of the same span (award) wins.
      [
        ['Marie Curie', 'person'],
        ['Nobel Prize in Physics', 'award'],
        ['1903', 'date'],
        ['Curie', 'person'],
        ['Warsaw', 'place'],
      ],
      // QUANTITY is not an entity here.
      [
        ['University of Paris', 'organization'],
        ['Marie Curie', 'person'],
        ['1906', 'date'],
      ],
    ]);
    const facts = result.extraction.chunks[0]?.relations.flatMap((relation) =>
      relation.fact ? [[relation.predicate, relation.fact.text]] : [],
    );
    expect(facts).toContainEqual(['won', 'Marie Curie won the Nobel Prize in Physics in 1903.']);
    expect(facts).toContainEqual(['born in', 'Curie was born in Warsaw.']);

    const { memory, violations } = mergeIntoFreshGraph(result.extraction);
    expect(violations).toEqual([]);
    expect(entityNamed(memory, 'Marie Curie')?.aliases.has('curie')).toBe(true);
    expect(entityNamed(memory, 'Warsaw')?.type).toBe('place');
  });

  it('turns code-point offsets into string offsets', async () => {
    const file = { fileId: 'party', chunks: [{ id: 'party-0', text: '🎉 Marie Curie visited Paris.' }] };
    const extractor = await extractorFor((request) => detect(textOf(request)));
    const result = await extractor.extract(file, CULTURE_CONTEXT);
    expect(result.extraction.chunks[0]?.mentions.map((mention) => [mention.surface, mention.start, mention.end])).toEqual([
      ['Marie Curie', 3, 14],
      ['Paris', 23, 28],
    ]);
    expect(mergeIntoFreshGraph(result.extraction, file).violations).toEqual([]);
  });

  it('retries TooManyRequestsException and InternalServerException', async () => {
    const tries = new Map<string, number>();
    const extractor = await extractorFor((request) => {
      const text = textOf(request);
      const attempt = (tries.get(text) ?? 0) + 1;
      tries.set(text, attempt);
      if (attempt === 1) return awsError(400, 'TooManyRequestsException', 'Rate exceeded');
      if (attempt === 2) return awsError(500, 'InternalServerException', 'Internal server error');
      return detect(text);
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: false, calls: 6, offlineChunks: 0, billedUnits: 6 });
  });

  it('makes a chunk whose requests keep failing with the offline extractor, and says so', async () => {
    const second = CURIE_FILE.chunks[1]?.text;
    const extractor = await extractorFor((request) =>
      textOf(request) === second ? awsError(400, 'TooManyRequestsException', 'Rate exceeded') : detect(textOf(request)),
    );
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 4, offlineChunks: 1, billedUnits: 3 });
    expect(result.reason).toMatch(
      /^comprehend: service failure: Amazon Comprehend DetectEntities failed \(TooManyRequestsException, HTTP 400\): Rate exceeded; offline extractor used for 1 of 2 chunks$/,
    );
    expect(result.extraction.chunks[1]).toEqual(offlineExtraction(CURIE_FILE).chunks[1]);
    expect(result.extraction.chunks[0]?.mentions.map((mention) => mention.surface)).toContain('Warsaw');
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it('drops entities below the score floor', async () => {
    const extractor = await extractorFor((request) => detect(textOf(request)), { minScore: 0.95 });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result.extraction.chunks[0]?.mentions.map((mention) => mention.surface)).not.toContain('Nobel Prize in Physics');
  });
});
