/** KMEM_ANSWER_MODEL_*: off by default, each provider with what it needs, misconfigurations named. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../functions/config';

describe('answer model configuration', () => {
  it('is off by default', () => {
    expect(loadConfig({}).answerModel).toEqual({ kind: 'none' });
  });

  it('reads an OpenAI-compatible endpoint and a Bedrock model', () => {
    const openai = loadConfig({
      KMEM_ANSWER_MODEL_PROVIDER: 'openai',
      KMEM_ANSWER_MODEL: 'gpt-4o-mini',
      KMEM_ANSWER_MODEL_URL: 'https://api.openai.com/v1',
      KMEM_ANSWER_MODEL_API_KEY: 'sk-test',
      KMEM_ANSWER_TIMEOUT_MS: '8000',
    });
    expect(openai.answerModel).toEqual({
      kind: 'openai',
      url: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-test',
      timeoutMs: 8000,
    });
    const bedrock = loadConfig({ KMEM_ANSWER_MODEL_PROVIDER: 'bedrock', KMEM_ANSWER_MODEL: 'us.amazon.nova-lite-v1:0' });
    expect(bedrock.answerModel).toEqual({ kind: 'bedrock', model: 'us.amazon.nova-lite-v1:0', timeoutMs: 15_000 });
  });

  it('names what is missing or wrong', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { KMEM_ANSWER_MODEL_PROVIDER: 'openai', KMEM_ANSWER_MODEL_URL: 'http://127.0.0.1:1/v1' },
        /KMEM_ANSWER_MODEL_PROVIDER=openai needs KMEM_ANSWER_MODEL$/,
      ],
      [{ KMEM_ANSWER_MODEL_PROVIDER: 'openai', KMEM_ANSWER_MODEL: 'm' }, /KMEM_ANSWER_MODEL_PROVIDER=openai needs KMEM_ANSWER_MODEL_URL/],
      [{ KMEM_ANSWER_MODEL_PROVIDER: 'bedrock' }, /KMEM_ANSWER_MODEL_PROVIDER=bedrock needs KMEM_ANSWER_MODEL/],
      [
        { KMEM_ANSWER_MODEL_PROVIDER: 'bedrock', KMEM_ANSWER_MODEL: 'm', KMEM_ANSWER_MODEL_API_KEY: 'k' },
        /takes no KMEM_ANSWER_MODEL_API_KEY/,
      ],
      [{ KMEM_ANSWER_MODEL: 'gpt-4o-mini' }, /KMEM_ANSWER_MODEL set but KMEM_ANSWER_MODEL_PROVIDER is none/],
      [{ KMEM_ANSWER_MODEL_PROVIDER: 'anthropic' }, /KMEM_ANSWER_MODEL_PROVIDER/],
      [{ KMEM_ANSWER_MODEL_PROVIDER: 'openai', KMEM_ANSWER_MODEL: 'm', KMEM_ANSWER_MODEL_URL: 'not a url' }, /KMEM_ANSWER_MODEL_URL/],
      [{ KMEM_ANSWER_TIMEOUT_MS: '0' }, /KMEM_ANSWER_TIMEOUT_MS/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });
});
