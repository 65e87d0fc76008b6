/**
 * A fake AWS endpoint on 127.0.0.1 for adapter tests: the JSON protocol (X-Amz-Target) answered by a
 * test's handler, a path-style S3 object store, and `/served/<key>` that serves stored objects by URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonReply {
  status?: number;
  body: unknown;
}

export type JsonHandler = (target: string, input: Record<string, unknown>) => JsonReply | Promise<JsonReply>;

export interface FakeAws {
  endpoint: string;
  /** Stored objects by `bucket/key`. */
  objects: Map<string, Buffer>;
  /** Every JSON-protocol call, in order. */
  calls: Array<{ target: string; input: Record<string, unknown> }>;
  /** Every S3 request as `METHOD /bucket/key`. */
  s3Requests: string[];
  close(): Promise<void>;
}

export async function startFakeAws(handler: JsonHandler): Promise<FakeAws> {
  const objects = new Map<string, Buffer>();
  const calls: FakeAws['calls'] = [];
  const s3Requests: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request)
      .then(async (body) => {
        const target = request.headers['x-amz-target'];
        if (typeof target === 'string') {
          const parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
          calls.push({ target, input: parsed });
          return replyJson(response, await handler(target, parsed));
        }
        const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
        if (path.startsWith('/served/')) return replyObject(response, objects.get(path.slice('/served/'.length)));
        s3Requests.push(`${request.method ?? 'GET'} ${path}`);
        return answerS3(request.method ?? 'GET', path.slice(1), body, objects, response);
      })
      .catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    calls,
    s3Requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function replyJson(response: ServerResponse, reply: JsonReply): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': 'fake' };
  const type = (reply.body as { __type?: unknown }).__type;
  if (status >= 400 && typeof type === 'string') headers['x-amzn-errortype'] = type;
  response.writeHead(status, headers).end(JSON.stringify(reply.body));
}

function replyObject(response: ServerResponse, object: Buffer | undefined): void {
  if (!object) response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  else response.writeHead(200, { 'content-type': 'application/json' }).end(object);
}

function answerS3(method: string, key: string, body: Buffer, objects: Map<string, Buffer>, response: ServerResponse): void {
  if (method === 'PUT') {
    objects.set(key, body);
    response.writeHead(200, { etag: '"fake"' }).end();
  } else if (method === 'DELETE') {
    objects.delete(key);
    response.writeHead(204).end();
  } else if (objects.has(key)) {
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(objects.get(key));
  } else {
    response
      .writeHead(404, { 'content-type': 'application/xml' })
      .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
  }
}
