/**
 * The answer model's key from Secrets Manager: a double on 127.0.0.1 speaking its JSON 1.1 protocol
 * (GetSecretValue) beside an OpenAI-compatible double. The key is read once per container, sent as the
 * bearer key, and a failed read is tried again on the next answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerGeneratorFromSettings } from '../../../functions/adapters/providers/answer-generator-from-settings';
import { loadConfig } from '../../../functions/config';
import { startJsonServer, TEST_CREDENTIALS, type JsonServer, type Reply } from '../graph-extraction/support/json-server';
import { chatAnswer } from './support/replies';

const SECRET = 'kmem/answer-model-key';
const servers: JsonServer[] = [];
/** The SDK's settings a test sets in the process environment, put back after it (the thread runs other files next). */
const SDK_SETTINGS = ['AWS_ENDPOINT_URL_SECRETS_MANAGER', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_MAX_ATTEMPTS'] as const;
const sdkSettingsBefore = SDK_SETTINGS.map((name) => [name, process.env[name]] as const);
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const [name, value] of sdkSettingsBefore) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function doubles(secretAnswers: Array<'ok' | 'down'>) {
  const secrets = await startJsonServer((request, index): Reply => {
    expect(request.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    if (secretAnswers[index] === 'down')
      return { status: 500, headers: { 'x-amzn-errortype': 'InternalServiceError' }, body: { message: 'down' } };
    const secretId = (request.body as { SecretId: string }).SecretId;
    return {
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: {
        ARN: `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${secretId}-AbCdEf`,
        Name: secretId,
        SecretString: 'sk-from-secrets-manager',
        VersionId: 'v1',
      },
    };
  });
  const model = await startJsonServer(() => chatAnswer('Founded in 1909 [1].', 100));
  servers.push(secrets, model);
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.url,
    AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
    AWS_MAX_ATTEMPTS: '1',
  });
  const config = loadConfig({
    AWS_REGION: 'eu-west-1',
    KMEM_ANSWER_MODEL_PROVIDER: 'openai',
    KMEM_ANSWER_MODEL: 'gpt-4o-mini',
    KMEM_ANSWER_MODEL_URL: `${model.url}/v1`,
    KMEM_ANSWER_MODEL_API_KEY_SECRET: SECRET,
  });
  return { secrets, model, generator: answerGeneratorFromSettings(config.answerModel, config) };
}

const EVIDENCE = [{ n: 1, content: 'The Radium Institute was founded in 1909.' }];

describe('answer model key from Secrets Manager', () => {
  it('reads the named secret once per container and sends it as the bearer key', async () => {
    const { secrets, model, generator } = await doubles(['ok']);
    for (let i = 0; i < 3; i++) expect((await generator?.answer('When?', EVIDENCE))?.text).toBe('Founded in 1909 [1].');
    expect(secrets.requests.map((request) => (request.body as { SecretId: string }).SecretId)).toEqual([SECRET]);
    expect(model.requests.map((request) => request.headers.authorization)).toEqual(Array(3).fill('Bearer sk-from-secrets-manager'));
  });

  it('tries the secret again after a failed read', async () => {
    const { secrets, generator } = await doubles(['down', 'ok']);
    await generator?.answer('When?', EVIDENCE).catch(() => undefined);
    expect((await generator?.answer('When?', EVIDENCE))?.text).toBe('Founded in 1909 [1].');
    expect(secrets.requests.length).toBeGreaterThanOrEqual(2);
  });
});
