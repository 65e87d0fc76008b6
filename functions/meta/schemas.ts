/** Routes that answer without a key: health and the OpenAPI document. */
import { z } from 'zod';
import { route } from '../http/route-spec';

export const metaApi = {
  health: route({
    group: 'meta',
    method: 'GET',
    path: '/healthz',
    operationId: 'getHealth',
    summary: 'Health: 200 once the stores are reachable',
    authenticated: false,
    response: z.object({ status: z.literal('ok') }),
    errors: [500],
  }),
  openapi: route({
    group: 'meta',
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    authenticated: false,
    response: z.record(z.string(), z.unknown()),
    errors: [500],
  }),
};
