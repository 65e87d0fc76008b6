/** The extractor factory: each kind of settings gives its extractor; offline is core's one offline extractor (`extractFile` behind the port). */
import { describe, expect, it } from 'vitest';
import { createGraphExtractor } from '../../../functions/adapters/graph-extraction';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../../functions/core/ingest/memory-graph';
import { CULTURE_CONTEXT, CURIE_FILE, mergeIntoFreshGraph, offlineExtraction } from './support/samples';

describe('createGraphExtractor', () => {
  it('names each configured extractor', () => {
    expect(createGraphExtractor({ kind: 'offline' }).name).toBe('offline');
    expect(createGraphExtractor({ kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' }).name).toBe(
      'openai-compatible/gpt-4o-mini',
    );
    expect(createGraphExtractor({ kind: 'bedrock', region: 'us-east-1', model: 'us.amazon.nova-lite-v1:0' }).name).toBe(
      'bedrock/us.amazon.nova-lite-v1:0',
    );
    expect(createGraphExtractor({ kind: 'comprehend', region: 'us-east-1' }).name).toBe('comprehend');
  });

  it('gives the offline extraction at no cost', async () => {
    const offline = createGraphExtractor({ kind: 'offline' });
    expect(offline).toBe(OFFLINE_GRAPH_EXTRACTOR); // the one the index builds use when they must not spend tokens
    const result = await offline.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ tokensUsed: 0, fellBack: false, calls: 0, offlineChunks: 2 });
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it('falls back offline when the endpoint cannot be reached', async () => {
    const extractor = createGraphExtractor({
      kind: 'openai',
      url: 'http://127.0.0.1:9/v1',
      model: 'm',
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 2, tokensUsed: 0 });
    expect(result.reason).toMatch(/service failure: chat completions request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed/);
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
  });
});
