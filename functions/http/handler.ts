/**
 * Builds the middy handler of an endpoint group: Powertools context, tracing and metrics, then one
 * middleware that authenticates, parses and dispatches to the route, and maps errors to the wire. The
 * group's deps are composed on its first request (a settings error answers 500 until fixed) and passed
 * into its routes once.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Container } from '../adapters/container';
import { ConfigError } from '../config';
import { InternalError, NotFoundError, TimedOutError } from '../core/errors';
import { authenticate } from '../core/use-cases/accounts';
import { enforceRateLimit } from '../core/use-cases/rate-limit';
import { logger, metrics, tracer } from '../observability';
import { apiKeyOf, parseRequest, headerMap, type RouteInput } from './request';
import type { z } from 'zod';
import { type RouteSpec, routeKey, specsOf, type TypedInput } from './route-spec';
import { isExpected, json, toWire } from './wire-errors';

export interface RouteResult {
  statusCode?: number;
  /** JSON-serialised unless `text` is given. */
  body?: unknown;
  /** A body already serialised (with its content type in `headers`). */
  text?: string;
  headers?: Record<string, string>;
}

export interface Caller {
  /** The authenticated account; empty for routes that need no key. */
  accountId: string;
  requestId: string;
}

export interface BoundRoute {
  spec: RouteSpec;
  run: (input: RouteInput, caller: Caller) => Promise<RouteResult>;
}

/** Pairs a route's contract with its implementation; the input arrives validated by the spec's schemas. */
export function bind<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType>(
  spec: RouteSpec<P, Q, B>,
  run: (input: TypedInput<P, Q, B>, caller: Caller) => Promise<RouteResult>,
): BoundRoute {
  return { spec: spec as unknown as RouteSpec, run: (input, caller) => run(input as TypedInput<P, Q, B>, caller) };
}

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** An endpoint group as a function: its route contracts, how its deps are composed, its routes over them. */
export interface HttpFunction<D extends Container> {
  /** The group's route contracts (its `…Api` object): known before the deps, so errors keep their shape. */
  api: object;
  /** Composes the deps; called on the first request, and again after one that threw. */
  deps: () => D;
  routes: (deps: D) => readonly BoundRoute[];
}

/** The deps and the routes bound to them, made once per container. */
interface Bound<D> {
  deps: D;
  routes: Map<string, BoundRoute>;
}

export function createHttpHandler<D extends Container>(fn: HttpFunction<D>): HttpHandler {
  const specs = new Map(specsOf(fn.api).map((spec) => [routeKey(spec.method, spec.path), spec]));
  let bound: Bound<D> | undefined;
  const ready = (): Bound<D> => {
    if (bound) return bound;
    const deps = fn.deps();
    bound = { deps, routes: new Map(fn.routes(deps).map((r) => [routeKey(r.spec.method, r.spec.path), r])) };
    return bound;
  };
  const dispatch = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const key = routeKey(event.httpMethod, event.resource);
    const spec = specs.get(key);
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    if (!spec) return toWire(new NotFoundError(`no route for ${event.httpMethod} ${event.path}`), wire(undefined, requestId));
    try {
      const result = await runRoute(ready(), key, event, requestId);
      if (result.text === undefined) return json(result.statusCode ?? 200, result.body);
      return {
        statusCode: result.statusCode ?? 200,
        headers: { 'content-type': 'application/json', ...result.headers },
        body: result.text,
      };
    } catch (error) {
      report(error, spec);
      return toWire(error, wire(spec, requestId));
    }
  };
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>({ timeoutEarlyInMillis: TIMEOUT_MARGIN_MS, timeoutEarlyResponse: timedOut })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(logMetrics(metrics))
    .handler(dispatch);
}

/** How long before the function's own timeout a request still running is answered 504 (and logged). */
const TIMEOUT_MARGIN_MS = 250;

/** The answer when the function's time runs out first (API Gateway alone would give a bare 502). */
function timedOut(): APIGatewayProxyResult {
  logger.error('request timed out: the function ran out of time before the route answered');
  metrics.addMetric('RequestFailures', MetricUnit.Count, 1);
  const error = new TimedOutError('the request took longer than the service may take to answer it; try again');
  return toWire(error, { shape: 'status', list: false, requestId: '' });
}

async function runRoute<D extends Container>(
  bound: Bound<D>,
  key: string,
  event: APIGatewayProxyEvent,
  requestId: string,
): Promise<RouteResult> {
  const { deps } = bound;
  const route = bound.routes.get(key);
  if (!route) throw new InternalError(`route ${key} has no implementation`);
  const accountId = route.spec.authenticated ? await authenticate(deps.apiKeys, apiKeyOf(headerMap(event))) : '';
  if (accountId) {
    logger.appendKeys({ accountId });
    await enforceRateLimit(deps, accountId);
  }
  const input = parseRequest(event, route.spec, bodyLimitOf(route.spec, deps.config));
  return route.run(input, { accountId, requestId });
}

/** JSON bodies are small; an upload's multipart body may hold a whole file (plus its framing). */
function bodyLimitOf(spec: RouteSpec, config: { maxBodyBytes: number; maxUploadBytes: number }): number {
  return spec.rawBody ? config.maxUploadBytes + MULTIPART_OVERHEAD_BYTES : config.maxBodyBytes;
}

const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

function wire(spec: RouteSpec | undefined, requestId: string) {
  return { shape: spec?.errorShape ?? 'status', list: spec?.list ?? false, requestId } as const;
}

function report(error: unknown, spec: RouteSpec): void {
  if (isExpected(error)) {
    logger.info('request refused', { route: routeKey(spec.method, spec.path), reason: error.message });
    return;
  }
  const message = error instanceof ConfigError ? 'function settings missing or invalid' : 'request failed';
  logger.error(message, { route: routeKey(spec.method, spec.path), error: error as Error });
  metrics.addMetric('RequestFailures', MetricUnit.Count, 1);
}
