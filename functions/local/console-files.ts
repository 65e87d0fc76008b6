/**
 * Serves the built console (console/dist) at /console/ from the API's own origin, as CloudFront does on
 * AWS: index.html for /console/, hashed assets cached for good, nothing outside the build directory.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { consoleContentSecurityPolicy } from '../../lib/console-headers';

const CONSOLE_PATH = '/console/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * A request handler for /console and below; answers false for every other path. `uploadOrigin` is the
 * local object store the console PUTs presigned uploads to (its Content-Security-Policy allows it).
 */
export function consoleFiles(dist: string, uploadOrigin: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  const security = securityHeaders(uploadOrigin);
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (path !== '/console' && !path.startsWith(CONSOLE_PATH)) return false;
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', `method ${req.method} is not allowed on ${path}`);
    } else if (path === '/console') {
      res.writeHead(301, { location: CONSOLE_PATH }).end();
    } else {
      void serve(dist, path.slice(CONSOLE_PATH.length) || 'index.html', res);
    }
    return true;
  };
}

async function serve(dist: string, relative: string, res: ServerResponse): Promise<void> {
  if (!existsSync(join(dist, 'index.html'))) {
    send(res, 503, 'text/plain; charset=utf-8', 'the console is not built: `npm start` builds it (or run npm run build:console)');
    return;
  }
  try {
    const file = normalize(join(dist, decodeURIComponent(relative)));
    if (!file.startsWith(dist + sep)) throw new Error('outside the build');
    const body = await readFile(file);
    const immutable = relative.startsWith('assets/');
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(body);
  } catch {
    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }
}

/** What CloudFront adds on AWS, less HSTS (the local runtime speaks plain HTTP). */
function securityHeaders(uploadOrigin: string): Record<string, string> {
  return {
    'content-security-policy': consoleContentSecurityPolicy(uploadOrigin),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type }).end(body);
}
