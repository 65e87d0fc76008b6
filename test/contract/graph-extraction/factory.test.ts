/** Settings to graph extractor: each kind of settings gives its extractor; offline is core's one offline extractor (`extractFile` behind the port). */
import { describe, expect, it } from 'vitest';
import { graphExtractorFromSettings } from '../../../functions/adapters/providers/graph-extractor-from-settings';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../../functions/core/ingest/memory-graph';
import { CULTURE_CONTEXT, CURIE_FILE, mergeIntoFreshGraph, offlineExtraction } from './support/samples';

const AWS = { region: 'us-east-1' };

describe('graphExtractorFromSettings', () => {
  it('names each configured extractor', () => {
    expect(graphExtractorFromSettings({ kind: 'offline' }, AWS).name).toBe('offline');
    expect(graphExtractorFromSettings({ kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' }, AWS).name).toBe(
      'openai-compatible/gpt-4o-mini',
    );
    expect(graphExtractorFromSettings({ kind: 'bedrock', model: 'us.amazon.nova-lite-v1:0' }, AWS).name).toBe(
      'bedrock/us.amazon.nova-lite-v1:0',
    );
    expect(graphExtractorFromSettings({ kind: 'comprehend' }, AWS).name).toBe('comprehend');
  });

  it('gives the offline extraction at no cost', async () => {
    const offline = graphExtractorFromSettings({ kind: 'offline' }, AWS);
    expect(offline).toBe(OFFLINE_GRAPH_EXTRACTOR); // the one the index builds use when they must not spend tokens
    const result = await offline.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ tokensUsed: 0, fellBack: false, calls: 0, offlineChunks: 2 });
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
    expect(mergeIntoFreshGraph(result.extraction).violations).toEqual([]);
  });

  it('falls back offline when the endpoint cannot be reached', async () => {
    const extractor = graphExtractorFromSettings({ kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'm' }, AWS, {
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const result = await extractor.extract(CURIE_FILE, CULTURE_CONTEXT);
    expect(result).toMatchObject({ fellBack: true, calls: 2, tokensUsed: 0 });
    expect(result.reason).toMatch(/service failure: chat completions request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions failed/);
    expect(result.extraction).toEqual(offlineExtraction(CURIE_FILE));
  });
});
