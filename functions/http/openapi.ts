/**
 * Builds the OpenAPI 3.0 document from the route catalog: the zod schemas that validate are the ones
 * published. Schemas given an id with `.meta({ id })` become named component schemas (`Memory`, `File`,
 * ...) referenced wherever they are used; query integers and flags are typed as such (their parsing is
 * a preprocess step, so the document shows the value the API accepts); every operation has an id a person
 * would choose and its error answers.
 */
import { z } from 'zod';
import { detailBody, errorBody } from './common-schemas';
import type { RouteSpec } from './route-spec';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (bad_request): the message names the field and the problem',
  401: 'API key missing (unauthorized)',
  403: 'API key invalid (forbidden)',
  404: "Not found (not_found), also for another account's ids",
  413: 'Body too large (bad_request)',
  429: 'Rate limited (rate_limited)',
  500: 'Internal failure (error, or internal server error on lists)',
};

const TAG_TEXT: Record<string, string> = {
  meta: 'Health and this document (no key needed)',
  users: 'Users of the calling account',
  sessions: 'Conversation sessions',
  messages: 'Messages of sessions, listing and search',
  files: 'Uploads and files (documents, media, web addresses)',
  memories: 'Graph and vector memories: files, sessions, ingestion, graph and entities',
  retrieval: 'Querying a memory',
};

const COMPONENT_REF = '#/components/schemas/';

/** Named schemas met while building, by id; one JSON form per id (a clash is a bug in the schemas). */
class Components {
  readonly schemas: Record<string, Json> = {};

  add(definitions: Record<string, Json> | undefined): void {
    for (const [id, schema] of Object.entries(definitions ?? {})) {
      const known = this.schemas[id];
      if (known && JSON.stringify(known) !== JSON.stringify(schema)) throw new Error(`OpenAPI: two different schemas are named ${id}`);
      this.schemas[id] = schema;
    }
  }
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Components): Json {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any', override: keepDefault }) as Json;
  const { definitions, ...rest } = withComponentRefs(json) as Json & { definitions?: Record<string, Json> };
  components.add(definitions);
  return rest;
}

/** zod drops the default of a value parsed by a preprocess step (query integers and flags); put it back. */
function keepDefault(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
  if (def.type === 'default' && ['number', 'boolean', 'string'].includes(typeof def.defaultValue))
    ctx.jsonSchema.default = def.defaultValue;
}

/** zod refers to named schemas under `#/definitions/`; the document keeps them in `components/schemas`. */
function withComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/definitions\//, COMPONENT_REF) : withComponentRefs(inner),
    ]),
  );
}

function parametersOf(spec: RouteSpec, components: Components): Json[] {
  const where: Array<['path' | 'query', z.ZodObject | undefined]> = [
    ['path', spec.params],
    ['query', spec.query],
  ];
  return where.flatMap(([location, object]) => {
    if (!object) return [];
    const json = schemaOf(object, 'input', components);
    const required = new Set((json.required as string[] | undefined) ?? []);
    const properties = (json.properties ?? {}) as Record<string, Json>;
    return Object.entries(properties).map(([name, { description, ...schema }]) => ({
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema,
    }));
  });
}

/** `createMemory` when given; otherwise the method and the path's words (`postFilesImport`). */
function operationIdOf(spec: RouteSpec): string {
  if (spec.operationId) return spec.operationId;
  const words = [spec.method.toLowerCase(), ...spec.path.split(/[^A-Za-z0-9]+/).filter(Boolean)];
  return words.map((word, i) => (i === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join('');
}

const UPLOAD_BODY = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: "The bytes, with the file name in the part's content-disposition" },
  },
};

function operationOf(spec: RouteSpec, components: Components): Json {
  const errorSchema = schemaOf(spec.errorShape === 'detail' ? detailBody : errorBody, 'output', components);
  const responses: Json = {
    200: { description: 'Success', content: { 'application/json': { schema: schemaOf(spec.response, 'output', components) } } },
  };
  for (const status of spec.errors) {
    responses[status] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: errorSchema } } };
  }
  const body = spec.rawBody
    ? { required: true, content: { 'multipart/form-data': { schema: UPLOAD_BODY } } }
    : spec.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input', components) } } }
      : undefined;
  return {
    operationId: operationIdOf(spec),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.group],
    ...(spec.authenticated ? {} : { security: [] }),
    parameters: parametersOf(spec, components),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

export function openApiDocument(specs: readonly RouteSpec[], version: string): Json {
  const components = new Components();
  const paths: Record<string, Json> = {};
  const published = specs.filter((spec) => spec.published !== false);
  for (const spec of published) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operationOf(spec, components) };
  }
  const tags = [...new Set(published.map((spec) => spec.group))].map((name) => ({ name, description: TAG_TEXT[name] ?? name }));
  return {
    openapi: '3.0.3',
    info: {
      title: 'kmem',
      version,
      description:
        'Knowledge memory service: upload files, build graph or vector memories from them and from conversations, and query them. ' +
        'Every operation but health and this document needs an API key, in `X-API-Key` or as `Authorization: Bearer <key>`.',
    },
    tags,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' },
      },
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
  };
}
