/**
 * A test double of Amazon S3 Vectors: an HTTP server on 127.0.0.1 speaking the REST JSON protocol that
 * @aws-sdk/client-s3vectors sends (`POST /<Operation>` with a JSON body, SigV4-signed; errors as
 * `x-amzn-errortype` + `{message}`), with exact search and AWS's published limits (./limits.ts). There is
 * no local S3 Vectors: the tier's tests and `npm run bench:s3vectors` run the real SDK client against this.
 *
 * Faults can be injected per operation (`fail`): the next calls, or the calls after some succeed, answer
 * an error without touching the state, which is how tests crash a batch half way.
 *
 * What the double decides where AWS publishes nothing: a comparison on a missing key does not match
 * (`$ne`, `$nin` included); metadata sizes are JSON UTF-8 bytes; tokens are offsets; search is exact
 * (AWS's is approximate), so recall here is 1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DoubleError, type ErrorName } from './errors';
import type { Body } from './fields';
import { LIMITS } from './limits';
import { Operations } from './operations';

type OperationName = Exclude<keyof Operations, 'buckets'>;

const OPERATIONS = new Set<string>([
  'CreateVectorBucket',
  'CreateIndex',
  'GetIndex',
  'DeleteIndex',
  'ListIndexes',
  'PutVectors',
  'GetVectors',
  'DeleteVectors',
  'ListVectors',
  'QueryVectors',
] satisfies OperationName[]);

/** An injected failure: after `after` successful calls (default 0), the next `times` calls answer `error`. */
interface Fault {
  readonly error: ErrorName;
  readonly times: number;
  readonly after?: number;
}

export interface S3VectorsDouble {
  /** The endpoint to give the SDK client. */
  readonly endpoint: string;
  /** Calls answered so far, by operation (failed ones included). */
  readonly calls: Record<string, number>;
  /** Milliseconds the double spent scoring vectors in QueryVectors, one entry a query. */
  readonly searchMs: number[];
  fail(operation: OperationName, fault: Fault): void;
  /** Vectors stored in an index (undefined when absent). */
  sizeOf(bucket: string, index: string): number | undefined;
  indexNames(bucket: string): string[];
  close(): Promise<void>;
}

export interface DoubleOptions {
  /** Vector buckets that exist from the start. */
  readonly buckets?: readonly string[];
  readonly port?: number;
}

export async function startS3VectorsDouble(options: DoubleOptions = {}): Promise<S3VectorsDouble> {
  const searchMs: number[] = [];
  const operations = new Operations({ add: (ms) => searchMs.push(ms) });
  for (const name of options.buckets ?? []) operations.CreateVectorBucket({ vectorBucketName: name });
  const calls: Record<string, number> = {};
  const faults = new Map<string, { error: ErrorName; times: number; after: number }>();

  const answer = (operation: string, body: Body): Body => {
    calls[operation] = (calls[operation] ?? 0) + 1;
    const fault = faults.get(operation);
    if (fault && fault.after > 0) fault.after--;
    else if (fault && fault.times > 0) {
      fault.times--;
      throw new DoubleError(fault.error, `injected ${fault.error}`);
    }
    return (operations[operation as OperationName] as (body: Body) => Body).call(operations, body);
  };

  const server = createServer((request, response) => {
    handle(request, response, answer).catch((error: unknown) => send(response, 500, { message: String(error) }, 'InternalServerException'));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    searchMs,
    fail: (operation, fault) => faults.set(operation, { error: fault.error, times: fault.times, after: fault.after ?? 0 }),
    sizeOf: (bucket, index) => operations.buckets.get(bucket)?.indexes.get(index)?.size,
    indexNames: (bucket) => [...(operations.buckets.get(bucket)?.indexes.keys() ?? [])].sort(),
    close: () => closeServer(server),
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, answer: (operation: string, body: Body) => Body): Promise<void> {
  try {
    const operation = new URL(request.url ?? '/', 'http://double').pathname.slice(1);
    if (request.method !== 'POST' || !OPERATIONS.has(operation))
      throw new DoubleError('ValidationException', `no operation ${request.method} /${operation}`);
    if (!request.headers.authorization?.startsWith('AWS4-HMAC-SHA256 Credential=')) {
      throw new DoubleError('AccessDeniedException', 'the request is not signed with SigV4');
    }
    const body = await readJson(request);
    send(response, 200, answer(operation, body));
  } catch (error) {
    if (error instanceof DoubleError) send(response, error.status, error.body(), error.errorName);
    else throw error;
  }
}

async function readJson(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.requestBytes) throw new DoubleError('ValidationException', `the request exceeds ${LIMITS.requestBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Body;
  } catch {
    throw new DoubleError('ValidationException', 'the body is not a JSON object');
  }
}

function send(response: ServerResponse, status: number, body: Body, errorType?: string): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': crypto.randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  response.end(payload);
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
