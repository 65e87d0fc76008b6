/** KMEM_RERANKER_*: off by default, each provider with what it needs, misconfigurations named. */
import { describe, expect, it } from 'vitest';
import { ConfigError, FUNCTION_SETTINGS, functionConfig, loadConfig } from '../../../functions/config';

describe('reranker configuration', () => {
  it('is off by default', () => {
    expect(loadConfig({}).reranker).toEqual({ kind: 'none' });
  });

  it('reads a Cohere-style endpoint and a Bedrock model, 50 candidates and 5 s unless told', () => {
    const openai = loadConfig({
      KMEM_RERANKER: 'openai',
      KMEM_RERANKER_MODEL: 'rerank-v3.5',
      KMEM_RERANKER_URL: 'https://api.cohere.com/v2',
      KMEM_RERANKER_API_KEY: 'co-test',
      KMEM_RERANKER_CANDIDATES: '20',
      KMEM_RERANKER_TIMEOUT_MS: '2000',
    });
    expect(openai.reranker).toEqual({
      kind: 'openai',
      url: 'https://api.cohere.com/v2',
      model: 'rerank-v3.5',
      apiKey: 'co-test',
      candidates: 20,
      timeoutMs: 2000,
    });
    const bedrock = loadConfig({ KMEM_RERANKER: 'bedrock', KMEM_RERANKER_MODEL: 'cohere.rerank-v3-5:0' });
    expect(bedrock.reranker).toEqual({ kind: 'bedrock', model: 'cohere.rerank-v3-5:0', candidates: 50, timeoutMs: 5000 });
    const endpoint = loadConfig({
      KMEM_RERANKER: 'bedrock',
      KMEM_RERANKER_MODEL: 'amazon.rerank-v1:0',
      KMEM_RERANKER_URL: 'http://127.0.0.1:9/',
    });
    expect(endpoint.reranker).toMatchObject({ kind: 'bedrock', endpoint: 'http://127.0.0.1:9/' });
  });

  it('is read by the retrieval function only', () => {
    const env = { KMEM_RERANKER: 'bedrock', KMEM_RERANKER_MODEL: 'amazon.rerank-v1:0' };
    expect(functionConfig('retrieval', env).reranker.kind).toBe('bedrock');
    expect(functionConfig('worker', env).reranker.kind).toBe('none');
    const readers = Object.entries(FUNCTION_SETTINGS).filter(([, sections]) => (sections as readonly string[]).includes('reranker'));
    expect(readers.map(([name]) => name)).toEqual(['retrieval']);
  });

  it('names what is missing or wrong', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ KMEM_RERANKER: 'openai', KMEM_RERANKER_URL: 'http://127.0.0.1:1/v1' }, /KMEM_RERANKER=openai needs KMEM_RERANKER_MODEL$/],
      [{ KMEM_RERANKER: 'openai', KMEM_RERANKER_MODEL: 'm' }, /KMEM_RERANKER=openai needs KMEM_RERANKER_URL/],
      [{ KMEM_RERANKER: 'bedrock' }, /KMEM_RERANKER=bedrock needs KMEM_RERANKER_MODEL/],
      [{ KMEM_RERANKER: 'bedrock', KMEM_RERANKER_MODEL: 'm', KMEM_RERANKER_API_KEY: 'k' }, /takes no KMEM_RERANKER_API_KEY/],
      [{ KMEM_RERANKER_MODEL: 'rerank-v3.5' }, /KMEM_RERANKER_MODEL set but KMEM_RERANKER is none/],
      [{ KMEM_RERANKER: 'cohere' }, /KMEM_RERANKER/],
      [{ KMEM_RERANKER: 'openai', KMEM_RERANKER_MODEL: 'm', KMEM_RERANKER_URL: 'not a url' }, /KMEM_RERANKER_URL/],
      [{ KMEM_RERANKER_CANDIDATES: '0' }, /KMEM_RERANKER_CANDIDATES/],
      [{ KMEM_RERANKER_CANDIDATES: '1001' }, /KMEM_RERANKER_CANDIDATES/],
      [{ KMEM_RERANKER_CANDIDATES: 'many' }, /KMEM_RERANKER_CANDIDATES/],
      [{ KMEM_RERANKER_TIMEOUT_MS: '0' }, /KMEM_RERANKER_TIMEOUT_MS/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });
});
