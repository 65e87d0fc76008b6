/**
 * A route's contract: method, path, the zod schemas of its inputs and success answer, and how its errors
 * are shaped. The catalog of every route (catalog.ts) is the one source for the handlers' dispatch, the
 * local router, the CDK routes, the OpenAPI document and the fuzz test.
 */
import type { z } from 'zod';

export type Group = 'meta' | 'users' | 'sessions' | 'messages' | 'memories' | 'files' | 'retrieval' | 'mcp';
type Method = 'GET' | 'POST' | 'DELETE';

/** `status`: `{error, status}` bodies; `detail`: `{detail}` bodies (retrieval). */
export type ErrorShape = 'status' | 'detail';

type AnyObject = z.ZodObject;

export interface RouteSpec<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType> {
  group: Group;
  method: Method;
  /** API Gateway resource path, with `{name}` path parameters. */
  path: string;
  /** The OpenAPI operation id, a verb and a noun (`createMemory`); derived from method and path when absent. */
  operationId?: string;
  summary: string;
  /** Longer text for the OpenAPI document: conditions between fields, limits, what happens next. */
  description?: string;
  /** false: served, but not part of the OpenAPI document (`POST /mcp` speaks JSON-RPC, described by MCP itself). */
  published?: boolean;
  /** false only for routes that answer without a key (health, OpenAPI document). */
  authenticated: boolean;
  errorShape: ErrorShape;
  /** List operations answer internal failures with `internal server error`. */
  list: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Raw bodies (multipart uploads) skip JSON parsing. */
  rawBody?: boolean;
  response: z.ZodType;
  /** Wire statuses this route can answer with besides success, for the OpenAPI document. */
  errors: readonly number[];
}

type SpecInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = Omit<
  RouteSpec<P, Q, B>,
  'authenticated' | 'errorShape' | 'list'
> &
  Partial<Pick<RouteSpec, 'authenticated' | 'errorShape' | 'list'>>;

export function route<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType>(
  spec: SpecInput<P, Q, B>,
): RouteSpec<P, Q, B> {
  // every authenticated route may answer 429 rate_limited (the per-account rate limit)
  const limited = spec.authenticated === false ? [] : [429];
  const errors = [...new Set([...spec.errors, ...ANY_ROUTE_ERRORS, ...limited])].sort((a, b) => a - b);
  return { authenticated: true, errorShape: 'status', list: false, ...spec, errors };
}

/** Statuses every route can answer before its handler runs: body too large (413), throttled (429). */
const ANY_ROUTE_ERRORS = [413, 429] as const;

/** The validated input a route implementation receives, typed by its spec's schemas. */
export interface TypedInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  raw?: Buffer;
  headers: Record<string, string>;
  /** The address this API was called at (scheme, host and stage), when the request says. */
  origin?: string;
}

export const routeKey = (method: string, path: string): string => `${method} ${path}`;

/** The route contracts of a group's `…Api` object. */
export const specsOf = (api: object): RouteSpec[] => Object.values(api) as RouteSpec[];
