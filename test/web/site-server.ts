/**
 * A throwaway web site on 127.0.0.1 (port 0) for the web tests: a route table, a log of the requests it
 * received, and helpers for common answers. Every test file starts its own.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Paths (with query) requested so far, in order. */
  hits: string[];
  /** Request headers by path, the last request of each. */
  headers: Map<string, IncomingMessage['headers']>;
  close(): Promise<void>;
}

export async function startSite(routes: Record<string, Route>): Promise<TestSite> {
  const hits: string[] = [];
  const headers = new Map<string, IncomingMessage['headers']>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.push(path);
    headers.set(path, request.headers);
    const route = routes[path] ?? routes[path.split('?')[0] ?? ''];
    if (route) route(request, response);
    else send(response, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    headers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

export const html =
  (body: string): Route =>
  (_request, response) =>
    send(response, 200, 'text/html; charset=utf-8', body);

export const redirect =
  (location: string, status = 302): Route =>
  (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };

/** A small HTML page whose body holds `content`. */
export function page(title: string, content: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${content}</body></html>`;
}
