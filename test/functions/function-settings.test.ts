/**
 * Per-function settings: each function reads only its own sections, and on AWS Lambda the values the
 * stack sets are required. A function started without them logs which is missing and answers 500 in the
 * interface's error shape, instead of reaching a default table.
 */
import type { APIGatewayProxyEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createContainer } from '../../functions/adapters/container';
import { ConfigError, FUNCTION_SETTINGS, loadConfig } from '../../functions/config';
import { lambdaContext } from '../../functions/local/lambda-context';

// A deployed handler composes its deps once per process, at its first call: fresh copies, so that a file run
// before this one in the same worker process (test/soak/lambda-extraction.test.ts) has not composed them already
vi.resetModules();
const { handler: usersHandler } = await import('../../functions/users/handler');
const { handler: workerHandler } = await import('../../functions/worker/handler');

const ON_LAMBDA = {
  AWS_LAMBDA_FUNCTION_NAME: 'kmem-qa-users',
  AWS_REGION: 'eu-west-1',
  KMEM_STAGE: 'qa',
  KMEM_TABLE_NAME: 'kmem-qa-table',
  KMEM_BUCKET_NAME: 'kmem-qa-artefacts',
  KMEM_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/kmem-qa-work',
};

describe('loadConfig', () => {
  it('keeps the local defaults off Lambda', () => {
    const config = loadConfig({}, FUNCTION_SETTINGS.users);
    expect(config).toMatchObject({ tableName: 'kmem', bucketName: 'kmem-artefacts', queue: { kind: 'local' } });
    expect(config.wordVectorCache).toBe(true);
  });

  it('requires the table, bucket, queue and stage on Lambda, naming each one missing', () => {
    const { KMEM_TABLE_NAME: _table, ...withoutTable } = ON_LAMBDA;
    expect(() => loadConfig(withoutTable, FUNCTION_SETTINGS.users)).toThrow(ConfigError);
    expect(() => loadConfig(withoutTable, FUNCTION_SETTINGS.users)).toThrow(/KMEM_TABLE_NAME: not set \(required on AWS Lambda/);
    const error = (() => {
      try {
        loadConfig({ AWS_LAMBDA_FUNCTION_NAME: 'kmem-qa-worker', AWS_REGION: 'eu-west-1' }, FUNCTION_SETTINGS.worker);
      } catch (caught) {
        return String(caught);
      }
      return '';
    })();
    for (const name of ['KMEM_STAGE', 'KMEM_TABLE_NAME', 'KMEM_BUCKET_NAME', 'KMEM_QUEUE_URL']) expect(error).toContain(name);
    expect(loadConfig(ON_LAMBDA, FUNCTION_SETTINGS.users)).toMatchObject({ tableName: 'kmem-qa-table', queue: { kind: 'sqs' } });
    // the package dir is read-only there and /tmp would hold 140 MB no later container reads
    expect(loadConfig(ON_LAMBDA, FUNCTION_SETTINGS.worker).wordVectorCache).toBe(false);
  });

  it("composes a deployed function over SQS only: without a queue URL it names the setting (the file queue is the local runtime's)", () => {
    expect(() => createContainer(loadConfig({}, FUNCTION_SETTINGS.users))).toThrow(ConfigError);
    expect(() => createContainer(loadConfig({}, FUNCTION_SETTINGS.users))).toThrow(/KMEM_QUEUE_URL: not set/);
    expect(createContainer(loadConfig(ON_LAMBDA, FUNCTION_SETTINGS.users)).config.queue).toEqual({
      kind: 'sqs',
      url: ON_LAMBDA.KMEM_QUEUE_URL,
    });
  });

  it('validates only the sections a function reads', () => {
    const env = { ...ON_LAMBDA, KMEM_ANSWER_MODEL_PROVIDER: 'anthropic', KMEM_WORK_MAX_ATTEMPTS: 'lots' };
    expect(loadConfig(env, FUNCTION_SETTINGS.users).answerModel).toEqual({ kind: 'none' });
    expect(() => loadConfig(env, FUNCTION_SETTINGS.retrieval)).toThrow(/KMEM_ANSWER_MODEL_PROVIDER/);
    expect(() => loadConfig(env, FUNCTION_SETTINGS.worker)).toThrow(/KMEM_WORK_MAX_ATTEMPTS/);
  });
});

describe('a deployed function started without its settings', () => {
  const saved = { ...process.env };
  let logged: string[];

  beforeEach(() => {
    logged = [];
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        logged.push(String(chunk));
        return true;
      });
    }
  });

  afterEach(() => {
    vi.restoreAllMocks();
    process.env = { ...saved };
  });

  it('logs the missing setting and answers 500 with the error shape', async () => {
    const { KMEM_TABLE_NAME: _table, ...withoutTable } = ON_LAMBDA;
    process.env = { ...saved, ...withoutTable };
    delete process.env.KMEM_TABLE_NAME;
    const answer = await usersHandler(usersList('unused-key'), lambdaContext('users', 'req-settings-1'));
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ status: 'internal server error', error: expect.stringContaining('req-settings') }); // a list route's shape
    const line = logged.find((text) => text.includes('function settings missing or invalid'));
    expect(line).toContain('KMEM_TABLE_NAME: not set');
  });

  it("fails the worker's record (for a retry) and logs the missing setting", async () => {
    const { KMEM_TABLE_NAME: _table, ...withoutTable } = ON_LAMBDA;
    process.env = { ...saved, ...withoutTable, AWS_LAMBDA_FUNCTION_NAME: 'kmem-qa-worker' };
    delete process.env.KMEM_TABLE_NAME;
    const record = {
      messageId: 'm-1',
      receiptHandle: 'r-1',
      body: JSON.stringify({ kind: 'file.process', accountId: 'a', fileId: 'f' }),
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:kmem-qa-work',
      awsRegion: 'eu-west-1',
    } as unknown as SQSRecord;
    const answer = await workerHandler({ Records: [record] }, lambdaContext('worker', 'req-settings-3'));
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    const line = logged.find((text) => text.includes('function settings missing or invalid'));
    expect(line).toContain('KMEM_TABLE_NAME: not set');
  });

  it('answers once its settings are there', async () => {
    const kmem = inject('kmem');
    process.env = {
      ...saved,
      ...ON_LAMBDA,
      KMEM_TABLE_NAME: 'kmem',
      AWS_REGION: 'local',
      KMEM_DYNAMODB_ENDPOINT: kmem.dynamodbEndpoint,
      KMEM_S3_ENDPOINT: kmem.s3Endpoint,
    };
    const answer = await usersHandler(usersList(kmem.keyA), lambdaContext('users', 'req-settings-2'));
    expect(answer.statusCode).toBe(200);
  });
});

function usersList(apiKey: string): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    resource: '/users/list',
    path: '/users/list',
    headers: { 'X-API-Key': apiKey },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-settings' } as APIGatewayProxyEvent['requestContext'],
  };
}
