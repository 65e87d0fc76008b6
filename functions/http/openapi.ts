/** Builds the OpenAPI 3.0 document from the route catalog: the schemas that validate are the ones published. */
import { z } from 'zod';
import { detailBody, errorBody } from './common-schemas';
import type { RouteSpec } from './route-spec';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (bad_request)',
  401: 'API key missing (unauthorized)',
  403: 'API key invalid (forbidden)',
  404: 'Not found (not_found)',
  413: 'Body too large (bad_request)',
  429: 'Rate limited (rate_limited)',
  500: 'Internal failure (error, or internal server error on lists)',
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
}

function parametersOf(spec: RouteSpec): Json[] {
  const where: Array<['path' | 'query', z.ZodObject | undefined]> = [
    ['path', spec.params],
    ['query', spec.query],
  ];
  return where.flatMap(([location, object]) => {
    if (!object) return [];
    const json = schemaOf(object, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    const properties = (json.properties ?? {}) as Record<string, Json>;
    return Object.entries(properties).map(([name, schema]) => ({
      name,
      in: location,
      required: location === 'path' || required.has(name),
      schema,
    }));
  });
}

function operationOf(spec: RouteSpec): Json {
  const errorSchema = schemaOf(spec.errorShape === 'detail' ? detailBody : errorBody, 'output');
  const responses: Json = {
    200: { description: 'Success', content: { 'application/json': { schema: schemaOf(spec.response, 'output') } } },
  };
  for (const status of spec.errors) {
    responses[status] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorSchema } } };
  }
  const body = spec.rawBody
    ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } }
    : spec.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } }
      : undefined;
  return {
    operationId: `${spec.group}.${spec.method.toLowerCase()}.${spec.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: spec.summary,
    tags: [spec.group],
    ...(spec.authenticated ? {} : { security: [] }),
    parameters: parametersOf(spec),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

export function openApiDocument(specs: readonly RouteSpec[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const spec of specs) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operationOf(spec) };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'kmem', version, description: 'Knowledge memory service' },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
