/**
 * Turns an API Gateway event into validated route input: size and UTF-8 checks, JSON parsing, and the
 * route's zod schemas for path, query and body. Every failure is a bad_request naming the field.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import { BadRequestError, PayloadTooLargeError } from '../core/errors';
import type { RouteSpec } from './route-spec';

export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** The raw body bytes, for routes that take them (uploads). */
  raw?: Buffer;
  headers: Record<string, string>;
  /** The address this API was called at (scheme, host and stage), from the request context. */
  origin?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function headerMap(event: APIGatewayProxyEvent): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** The caller's API key: `X-API-Key`, else the token of `Authorization: Bearer <key>`. */
export function apiKeyOf(headers: Record<string, string>): string | undefined {
  const key = headers['x-api-key'];
  if (key !== undefined) return key;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return bearer?.[1];
}

export function parseRequest(event: APIGatewayProxyEvent, spec: RouteSpec, maxBodyBytes: number): RouteInput {
  const raw = bodyBytes(event);
  if (raw && raw.length > maxBodyBytes) {
    throw new PayloadTooLargeError(`body: is ${raw.length} bytes; the limit is ${maxBodyBytes} bytes`);
  }
  return {
    params: validate('path', spec.params, event.pathParameters ?? {}) as Record<string, unknown>,
    query: validate('query', spec.query, event.queryStringParameters ?? {}) as Record<string, unknown>,
    body: spec.rawBody ? undefined : validate('body', spec.body, decodeJson(raw)),
    raw: spec.rawBody ? raw : undefined,
    headers: headerMap(event),
    origin: originOf(event),
  };
}

/**
 * Where the caller reached this API, from what API Gateway (or the local router) puts in the request
 * context, never from the caller's Host header: the stage is part of the path on the execute-api domain.
 */
function originOf(event: APIGatewayProxyEvent): string | undefined {
  const { domainName, stage } = event.requestContext ?? {};
  if (!domainName) return undefined;
  if (stage === 'local') return `http://${domainName}`;
  return domainName.endsWith('.amazonaws.com') ? `https://${domainName}/${stage}` : `https://${domainName}`;
}

function bodyBytes(event: APIGatewayProxyEvent): Buffer | undefined {
  if (event.body === null || event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

function decodeJson(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw BadRequestError.forField('body', 'is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? ` (${error.message})` : '';
    throw BadRequestError.forField('body', `is not valid JSON${detail}`);
  }
}

function validate(where: 'path' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return value;
  if (where === 'body' && value === undefined) throw BadRequestError.forField('body', 'a JSON object is required');
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new BadRequestError(describeIssues(where, result.error.issues));
}

function describeIssues(where: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const field = path || (where === 'body' ? 'body' : where);
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
