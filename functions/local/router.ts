/**
 * The local HTTP router: matches a request against the route catalog, builds the API Gateway (REST, v1)
 * proxy event the deployed handler would receive, calls that group's handler and writes its answer.
 * It holds no business logic: everything past the event is the same code that runs on Lambda.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { HttpHandler } from '../http/handler';
import type { Group, RouteSpec } from '../http/route-spec';
import { apiKeyOf } from '../http/request';
import { isExpected, json, toWire } from '../http/wire-errors';
import { lambdaContext } from './lambda-context';

interface CompiledRoute {
  spec: RouteSpec;
  pattern: RegExp;
  names: string[];
}

export interface RouterOptions {
  routes: readonly RouteSpec[];
  handlers: Partial<Record<Group, HttpHandler>>;
  /** Requests larger than this are refused before they are read whole. */
  maxRequestBytes: number;
  /**
   * Checks the key a request presents (throws the error to answer), before its body is read, so a
   * caller without a valid key cannot make the router buffer an upload. The handler checks it again.
   */
  authenticate?: (apiKey: string | undefined) => Promise<unknown>;
  onRequest?: (line: string) => void;
  /** Told why a request failed inside the router or a handler threw (the caller sees only a 500). */
  onError?: (line: string) => void;
  /** Serves non-API paths (the console's static files); answers true when it took the request. */
  staticFiles?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

function compile(spec: RouteSpec): CompiledRoute {
  const names: string[] = [];
  const source = trimSlash(spec.path)
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { spec, pattern: new RegExp(`^${source}$`), names };
}

export function createRouter(options: RouterOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const compiled = options.routes.map(compile);
  return (req, res) => {
    if (options.staticFiles?.(req, res)) return;
    const started = performance.now();
    handle(req, options, compiled)
      .then((result) => write(res, result))
      .catch((error: unknown) => {
        const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
        (options.onError ?? ((line: string) => process.stderr.write(`${line}\n`)))(
          `local router: ${req.method} ${req.url} failed: ${reason}`,
        );
        write(res, json(500, { error: 'local router failure', status: 'error' }));
      })
      .finally(() => {
        const ms = (performance.now() - started).toFixed(1);
        options.onRequest?.(`${req.method} ${req.url} -> ${res.statusCode} ${ms}ms`);
      });
  };
}

async function handle(req: IncomingMessage, options: RouterOptions, routes: CompiledRoute[]): Promise<APIGatewayProxyResult> {
  const url = new URL(req.url ?? '/', 'http://local');
  const path = trimSlash(url.pathname);
  const matches = routes.map((r) => ({ route: r, match: r.pattern.exec(path) })).filter((m) => m.match);
  const found = matches.find((m) => m.route.spec.method === req.method);
  if (!found?.match) {
    req.resume();
    return matches.length
      ? json(405, { error: `method ${req.method} is not allowed on ${url.pathname}`, status: 'bad_request' })
      : json(404, { error: `no such route: ${req.method} ${url.pathname}`, status: 'not_found' });
  }
  const handler = options.handlers[found.route.spec.group];
  if (!handler) return json(404, { error: `no handler for group ${found.route.spec.group}`, status: 'not_found' });
  const refused = await keyRefusal(req, found.route.spec, options);
  if (refused) return refused;
  const body = await readBody(req, options.maxRequestBytes);
  if (body === 'too large') {
    return json(413, { error: `body: larger than ${options.maxRequestBytes} bytes`, status: 'bad_request' });
  }
  const params = pathParameters(found.route, found.match);
  if (!params) return json(400, { error: 'path: is not valid percent-encoding', status: 'bad_request' });
  const event = buildEvent(req, url, found.route.spec, params, body);
  return handler(event, lambdaContext(found.route.spec.group, event.requestContext.requestId));
}

/** The answer to a request whose key is missing or unknown (its body left unread), or nothing. */
async function keyRefusal(req: IncomingMessage, spec: RouteSpec, options: RouterOptions): Promise<APIGatewayProxyResult | undefined> {
  if (!spec.authenticated || !options.authenticate) return undefined;
  const key = apiKeyOf(req.headers as Record<string, string | undefined>);
  try {
    await options.authenticate(key);
    return undefined;
  } catch (error) {
    if (!isExpected(error)) throw error;
    req.resume();
    return toWire(error, { shape: spec.errorShape, list: spec.list, requestId: randomUUID() });
  }
}

function pathParameters(route: CompiledRoute, match: RegExpExecArray): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  try {
    route.names.forEach((name, i) => {
      params[name] = decodeURIComponent(match[i + 1] ?? '');
    });
  } catch {
    return undefined;
  }
  return params;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      resolve('too large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? 'too large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function buildEvent(
  req: IncomingMessage,
  url: URL,
  spec: RouteSpec,
  pathParams: Record<string, string>,
  body: Buffer,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    addValue(headers, multiValueHeaders, req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) addValue(query, multiQuery, name, value);
  const hasQuery = Object.keys(query).length > 0;
  const requestId = randomUUID();
  return {
    resource: spec.path,
    path: url.pathname,
    httpMethod: spec.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: Object.keys(pathParams).length ? pathParams : null,
    stageVariables: null,
    body: body.length ? body.toString('base64') : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: undefined,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: spec.method,
      identity: localIdentity(req.socket.remoteAddress ?? '127.0.0.1', req.headers['user-agent'] ?? null),
      path: url.pathname,
      stage: 'local',
      domainName: localDomain(req),
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: spec.path,
      resourcePath: spec.path,
    },
  };
}

/** Records one header or query value; own-property checks keep names like `constructor` plain data. */
function addValue(single: Record<string, string>, multi: Record<string, string[]>, name: string, value: string): void {
  Object.defineProperty(single, name, { value, enumerable: true, writable: true, configurable: true });
  const values = Object.hasOwn(multi, name) ? (multi[name] as string[]) : [];
  values.push(value);
  Object.defineProperty(multi, name, { value: values, enumerable: true, writable: true, configurable: true });
}

/** The address the local server was reached at (its own socket, not the caller's Host header). */
function localDomain(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return `${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort ?? 80}`;
}

function localIdentity(sourceIp: string, userAgent: string | null): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp,
    user: null,
    userAgent,
    userArn: null,
  };
}

function write(res: ServerResponse, result: APIGatewayProxyResult): void {
  if (res.headersSent) return;
  const headers = { ...(result.headers ?? {}) } as Record<string, string | number | boolean>;
  res.writeHead(result.statusCode, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])));
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
