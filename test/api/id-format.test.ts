/**
 * Ids across every route that takes one, driven by the route catalog: a value that cannot be an id kmem
 * issues (memories, users: UUIDs) or accepts (files, sessions, messages: also 1-128 characters of letters,
 * digits and `. _ : -`) is 400 `bad_request` naming the field; a well-formed id nobody holds stays 404.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalog } from '../../functions/catalog';
import { idString, issuedId } from '../../functions/http/common-schemas';
import type { RouteSpec } from '../../functions/http/route-spec';
import { call, type Json } from '../support/api';

type Where = 'params' | 'query' | 'body';
interface IdField {
  where: Where;
  name: string;
  issued: boolean;
  list: boolean;
}

/** Well-formed values of every other field of the routes with query or body ids. */
const SAMPLES: Record<string, Partial<Record<'query' | 'body', Json>>> = {
  'POST /sessions/create': { body: { sessionID: 'id-format-session' } },
  'POST /messages/create': { body: { sessionID: 'id-format-unknown-session', role: 'user', content: 'hello' } },
  'GET /messages/list': { query: { sessionID: 'id-format-unknown-session' } },
  'GET /messages/search': { query: { sessionID: 'id-format-unknown-session', query: 'hello' } },
  'POST /files/create': { body: { name: 'a.txt', fileType: 'text', external_uri: 'https://example.com/a.txt' } },
  'POST /files/import': { body: { archiveKey: 'uploads/id-format/archive.zip' } },
  'POST /memories/add-files': { body: { memoryID: randomUUID(), files: ['id-format-file'] } },
  'POST /memories/start-ingestion': { body: { memoryID: randomUUID() } },
  'POST /memories/add-sessions': { body: { memoryID: randomUUID(), sessions: ['id-format-session'] } },
  'POST /memories/remove-sessions': { body: { memoryID: randomUUID(), sessions: ['id-format-session'] } },
  'DELETE /memories/delete-file': { query: { fileID: 'id-format-file', memoryID: randomUUID() } },
  'GET /memory': { query: { memoryID: randomUUID(), query: 'hello' } },
  'GET /memories/entities/{id}': { query: { name: 'Ada' } },
  'POST /files/metadata/{id}': { body: { metadata: [{ key: 'team', value: 'docs' }] } },
  'GET /memories/profile/{id}': { query: { customerUserID: 'id-format-user' } },
};

const label = (spec: RouteSpec) => `${spec.method} ${spec.path}`;

/** Whether a field's schema is one of the id schemas (possibly optional, or a list of ids). */
function idKind(schema: z.ZodType): { issued: boolean; list: boolean } | undefined {
  let inner: unknown = schema;
  let list = false;
  for (;;) {
    if (inner === idString) return { issued: false, list };
    if (inner === issuedId) return { issued: true, list };
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap();
    else if (inner instanceof z.ZodArray) [inner, list] = [inner.element, true];
    else return undefined;
  }
}

function idFields(spec: RouteSpec): IdField[] {
  return (['params', 'query', 'body'] as const).flatMap((where) => {
    const schema = spec[where];
    if (!(schema instanceof z.ZodObject)) return [];
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([name, field]) => {
      const kind = idKind(field);
      return kind ? [{ where, name, list: kind.list, issued: issuedOnly(spec, where, name) }] : [];
    });
  });
}

/** Ids only kmem issues (UUIDs): memories' and users' own ids, and every memoryID. */
function issuedOnly(spec: RouteSpec, where: Where, name: string): boolean {
  return name === 'memoryID' || (where === 'params' && (spec.group === 'memories' || spec.group === 'users'));
}

const idRoutes = catalog.filter((spec) => idFields(spec).length > 0);

/** The request of `spec` with `field` set to `value` and every other field well-formed. */
function request(spec: RouteSpec, field: IdField, value: string) {
  const sample = SAMPLES[label(spec)] ?? {};
  const set = (values: Json | undefined, where: Where) =>
    field.where === where ? { ...values, [field.name]: field.list ? [value] : value } : values;
  const params = set({ id: field.issued ? randomUUID() : 'id-format-unknown' }, 'params') as Record<string, string>;
  const path = spec.path.replace('{id}', encodeURIComponent(params.id ?? ''));
  const query = set(sample.query, 'query');
  const search = query ? `?${new URLSearchParams(query as Record<string, string>)}` : '';
  return call(spec.method, `${path}${search}`, spec.method === 'POST' ? { body: set(sample.body, 'body') ?? {} } : {});
}

const messageOf = (body: Json): string => String(body.error ?? body.detail ?? '');

describe('ids on every route that takes one', () => {
  it('finds the id routes in the catalog, each with a well-formed sample', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(20);
    const needSamples = idRoutes.filter((spec) => idFields(spec).some((field) => field.where !== 'params'));
    expect(needSamples.map(label).filter((name) => !SAMPLES[name])).toEqual([]);
  });

  it('answers 400 bad_request naming the field for a value that cannot be such an id', async () => {
    for (const spec of idRoutes) {
      for (const field of idFields(spec)) {
        const bad = field.issued ? ['not-a-uuid', 'bad id!'] : ['bad id!', 'x'.repeat(129), '-starts-with-dash'];
        for (const value of bad) {
          const answer = await request(spec, field, value);
          const name = field.where === 'params' ? field.name : field.list ? `${field.name}.0` : field.name;
          const where = `${label(spec)} ${field.where}.${field.name}=${JSON.stringify(value.slice(0, 20))}`;
          expect({ where, status: answer.status }).toEqual({ where, status: 400 });
          expect(messageOf(answer.body), where).toMatch(new RegExp(`(^|; )${name.replace('.', '\\.')}: must be`));
          if (spec.errorShape === 'status') expect(answer.body.status, where).toBe('bad_request');
        }
      }
    }
  });

  it('answers 404 for a well-formed id nobody holds', async () => {
    for (const spec of idRoutes.filter((route) => route.path.includes('{id}'))) {
      const field = idFields(spec).find((candidate) => candidate.where === 'params');
      if (!field) throw new Error(`${label(spec)}: no id parameter`);
      const answer = await request(spec, { ...field, where: 'query' }, 'unused');
      expect({ route: label(spec), status: answer.status }).toEqual({ route: label(spec), status: 404 });
    }
  });

  it('never calls a well-formed id of another field malformed', async () => {
    for (const spec of idRoutes) {
      for (const field of idFields(spec).filter((candidate) => candidate.where !== 'params')) {
        const answer = await request(spec, field, field.issued ? randomUUID() : 'well.formed:id_1-2');
        expect(messageOf(answer.body), `${label(spec)} ${field.name}`).not.toMatch(new RegExp(`${field.name}(\\.0)?: must be`));
      }
    }
  });
});
