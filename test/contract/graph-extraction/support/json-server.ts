/**
 * A JSON-over-HTTP server on 127.0.0.1 for the graph-extraction contract tests: records every request
 * and answers with whatever the test's handler returns (status, headers, JSON or raw body). The three
 * protocols spoken on it: OpenAI chat completions, Bedrock Converse (REST JSON), Comprehend (AWS JSON 1.1).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** Sent as JSON, or as is when a string. */
  readonly body: unknown;
}

export interface JsonServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, index: number) => Reply;

export async function startJsonServer(handler: Handler): Promise<JsonServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: decodeURIComponent(request.url ?? ''),
        headers: request.headers,
        body: text === '' ? null : (JSON.parse(text) as unknown),
      };
      requests.push(recorded);
      const reply = handler(recorded, requests.length - 1);
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Fast retries for tests. */
export const TEST_RETRY = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } as const;

export const TEST_CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' } as const;
