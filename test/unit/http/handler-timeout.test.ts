/**
 * A route still running when the function's time is about to run out is answered 504 with a clear message
 * (the one error tree's `timed_out`), not left to the platform's bare 502 or the local router's 500.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Container } from '../../../functions/adapters/container';
import { bind, createHttpHandler } from '../../../functions/http/handler';
import { lambdaContext } from '../../../functions/local/lambda-context';
import { metaApi } from '../../../functions/meta/schemas';

const healthEvent = {
  httpMethod: 'GET',
  resource: '/healthz',
  path: '/healthz',
  headers: {},
  body: null,
} as unknown as APIGatewayProxyEvent;

function handlerAnsweringAfter(ms: number) {
  const deps = { config: { maxBodyBytes: 1024, maxUploadBytes: 1024 } } as unknown as Container;
  return createHttpHandler({
    api: { health: metaApi.health },
    deps: () => deps,
    routes: () => [bind(metaApi.health, () => new Promise((resolve) => setTimeout(() => resolve({ body: { status: 'ok' } }), ms)))],
  });
}

describe('a request that outlives its function', () => {
  it('is answered 504 with a message saying so, before the function times out', async () => {
    const started = Date.now();
    const answer = await handlerAnsweringAfter(5_000)(healthEvent, lambdaContext('meta', 'req-1', 1_000));
    expect(answer.statusCode).toBe(504);
    expect(JSON.parse(answer.body)).toEqual({
      status: 'error',
      error: 'the request took longer than the service may take to answer it; try again',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers as usual when the route finishes in time', async () => {
    const answer = await handlerAnsweringAfter(10)(healthEvent, lambdaContext('meta', 'req-2', 1_000));
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });
});
