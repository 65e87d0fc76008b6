/** The guarded fetcher against a local site: redirects, the address guard, timeouts, caps, encodings. */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../functions/adapters/web/errors';
import { KMEM_USER_AGENT } from '../../functions/adapters/web/fetch-options';
import { fetchUrl } from '../../functions/adapters/web/fetcher';
import { pinnedLookup } from '../../functions/adapters/web/pinned-request';
import { HTML_PAGE } from '../../functions/adapters/web/content-type';
import { html, page, redirect, send, startSite, type TestSite } from './site-server';

const BIG = 3 * 1024 * 1024;
let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    '/hello': html(page('Hello', '<p>hello</p>')),
    '/r1': redirect('/r2', 301),
    '/r2': redirect('r3', 307),
    '/r3': (_req, res) => redirect(`${site.origin}/hello`, 308)(_req, res),
    '/loop': redirect('/loop'),
    '/to-credentials': (_req, res) => redirect(`http://user:secret@127.0.0.1:${site.port}/hello`)(_req, res),
    '/to-file': redirect('file:///etc/passwd'),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/slow-headers': (_req, res) => void setTimeout(() => send(res, 200, 'text/html', 'late'), 3_000),
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>first bytes');
      setTimeout(() => res.end('</p>'), 3_000);
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      streamZeros(res, BIG);
    },
    '/declared-huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(BIG) });
      res.end();
    },
    '/bomb': (_req, res) => encoded(res, 'gzip', gzipSync(Buffer.alloc(BIG))),
    '/image': (_req, res) => send(res, 200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])),
    '/unavailable': (_req, res) => send(res, 503, 'text/plain', 'later'),
    '/gzip': (_req, res) => encoded(res, 'gzip', gzipSync('<p>gzip body</p>')),
    '/deflate': (_req, res) => encoded(res, 'deflate', deflateSync('<p>deflate body</p>')),
    '/br': (_req, res) => encoded(res, 'br', brotliCompressSync('<p>brotli body</p>')),
    '/corrupt': (_req, res) => encoded(res, 'gzip', Buffer.from('not gzip at all')),
    '/zstd': (_req, res) => encoded(res, 'zstd', Buffer.from('whatever')),
    '/cut': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' });
      res.write('<p>only part');
      setTimeout(() => req.socket.destroy(), 20);
    },
    '/to-named': (_req, res) => redirect(`http://second.test:${site.port}/hello`)(_req, res),
  });
});

afterAll(() => site.close());

function encoded(res: import('node:http').ServerResponse, encoding: string, body: Buffer): void {
  res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding, 'content-length': body.length });
  res.end(body);
}

function streamZeros(res: import('node:http').ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}

const open = { allowPrivate: true } as const;

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}

describe('fetchUrl', () => {
  it('fetches a page with our user agent and content negotiation', async () => {
    const fetched = await fetchUrl(`${site.origin}/hello`, { ...open, expect: HTML_PAGE });
    expect(fetched.status).toBe(200);
    expect(fetched.mediaType).toEqual({ type: 'text/html', charset: 'utf-8' });
    expect(fetched.body.toString()).toContain('<p>hello</p>');
    const headers = site.headers.get('/hello');
    expect(headers?.['user-agent']).toBe(KMEM_USER_AGENT);
    expect(KMEM_USER_AGENT).toMatch(/^kmem\/\d+\.\d+\.\d+ \(.+\)$/);
    expect(headers?.accept).toContain('text/html');
    expect(headers?.['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('follows a redirect chain, relative and absolute, and reports each hop', async () => {
    const fetched = await fetchUrl(`${site.origin}/r1`, open);
    expect(fetched.url).toBe(`${site.origin}/hello`);
    expect(fetched.requestedUrl).toBe(`${site.origin}/r1`);
    expect(fetched.redirects).toEqual([`${site.origin}/r2`, `${site.origin}/r3`, `${site.origin}/hello`]);
  });

  it('gives up on a redirect chain that is too long', async () => {
    const error = await failure(fetchUrl(`${site.origin}/loop`, open));
    expect(error.reason).toBe('too_many_redirects');
    expect(error.message).toBe(`${site.origin}/loop redirected more than 5 times`);
    const tight = await failure(fetchUrl(`${site.origin}/r1`, { ...open, limits: { maxRedirects: 2 } }));
    expect(tight.message).toContain('redirected more than 2 times');
  });

  it('validates every redirect target with the address guard', async () => {
    const withCredentials = await failure(fetchUrl(`${site.origin}/to-credentials`, open));
    expect(withCredentials.reason).toBe('refused');
    expect(withCredentials.message).toContain('must not contain credentials');
    expect(withCredentials.message).toContain(`(redirected from ${site.origin}/to-credentials)`);
    const toFile = await failure(fetchUrl(`${site.origin}/to-file`, open));
    expect(toFile.message).toBe(`refused: file:///etc/passwd must be an http or https URL (redirected from ${site.origin}/to-file)`);
  });

  it('refuses loopback addresses, and redirects to private ones, when private addresses are not allowed', async () => {
    const before = site.hits.length;
    const direct = await failure(fetchUrl(`${site.origin}/hello`, { allowPrivate: false }));
    expect(direct.reason).toBe('refused');
    expect(direct.message).toBe(`refused: ${site.origin}/hello is a private address (127.0.0.1)`);
    const viaRedirect = await failure(fetchUrl(`${site.origin}/to-metadata`, { allowPrivate: false }));
    expect(viaRedirect.reason).toBe('refused');
    expect(site.hits.length).toBe(before); // nothing was sent
  });

  it('lets the caller refuse redirect targets', async () => {
    const error = await failure(
      fetchUrl(`${site.origin}/r1`, {
        ...open,
        checkRedirect: (target) => (target.pathname === '/r3' ? 'which is off limits' : undefined),
      }),
    );
    expect(error.reason).toBe('refused');
    expect(error.message).toBe(`refused: ${site.origin}/r2 redirected to ${site.origin}/r3, which is off limits`);
  });

  it('times out a server that does not answer, and one that stops sending the body', async () => {
    const started = Date.now();
    const silent = await failure(fetchUrl(`${site.origin}/slow-headers`, { ...open, limits: { totalTimeoutMs: 300 } }));
    expect(silent.reason).toBe('timeout');
    expect(silent.message).toBe(`${site.origin}/slow-headers timed out after 300 ms`);
    expect(silent.retryable).toBe(true);
    const stalled = await failure(fetchUrl(`${site.origin}/slow-body`, { ...open, limits: { totalTimeoutMs: 1_000 } }));
    expect(stalled.message).toBe(`${site.origin}/slow-body timed out after 1 s`);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('stops reading a body past the size cap, streamed, declared or compressed', async () => {
    const limits = { maxBytes: 1024 * 1024 };
    const streamed = await failure(fetchUrl(`${site.origin}/huge`, { ...open, limits }));
    expect(streamed.reason).toBe('too_large');
    expect(streamed.message).toBe(`${site.origin}/huge is larger than 1 MB`);
    const declared = await failure(fetchUrl(`${site.origin}/declared-huge`, { ...open, limits }));
    expect(declared.message).toBe(`${site.origin}/declared-huge is larger than 1 MB`);
    const bomb = await failure(fetchUrl(`${site.origin}/bomb`, { ...open, limits }));
    expect(bomb.reason).toBe('too_large');
    const fits = await fetchUrl(`${site.origin}/huge`, { ...open, limits: { maxBytes: BIG } });
    expect(fits.body.length).toBeGreaterThanOrEqual(BIG);
  });

  it('checks the content type the caller expects', async () => {
    const error = await failure(fetchUrl(`${site.origin}/image`, { ...open, expect: HTML_PAGE }));
    expect(error.reason).toBe('content_type');
    expect(error.message).toBe(`${site.origin}/image is not an HTML page (content-type image/png)`);
    const anything = await fetchUrl(`${site.origin}/image`, open);
    expect(anything.mediaType?.type).toBe('image/png');
  });

  it('reports HTTP errors with their status, and which ones are worth retrying', async () => {
    const missing = await failure(fetchUrl(`${site.origin}/nowhere`, open));
    expect(missing.message).toBe(`${site.origin}/nowhere answered 404 Not Found`);
    expect([missing.reason, missing.status, missing.retryable]).toEqual(['http_status', 404, false]);
    const unavailable = await failure(fetchUrl(`${site.origin}/unavailable`, open));
    expect([unavailable.status, unavailable.retryable]).toEqual([503, true]);
  });

  it('undoes gzip, deflate and brotli, and rejects corrupt or unknown encodings', async () => {
    expect((await fetchUrl(`${site.origin}/gzip`, open)).body.toString()).toBe('<p>gzip body</p>');
    expect((await fetchUrl(`${site.origin}/deflate`, open)).body.toString()).toBe('<p>deflate body</p>');
    expect((await fetchUrl(`${site.origin}/br`, open)).body.toString()).toBe('<p>brotli body</p>');
    const corrupt = await failure(fetchUrl(`${site.origin}/corrupt`, open));
    expect(corrupt.message).toBe(`${site.origin}/corrupt cannot be read: its compressed body is corrupt`);
    const zstd = await failure(fetchUrl(`${site.origin}/zstd`, open));
    expect(zstd.message).toContain('unsupported content-encoding (zstd)');
  });

  it('reports a connection cut in the middle of the body', async () => {
    const error = await failure(fetchUrl(`${site.origin}/cut`, open));
    expect([error.reason, error.message]).toEqual(['network', `${site.origin}/cut could not be read: the connection was cut`]);
  });

  it('names a refused connection', async () => {
    const closed = await startSite({});
    await closed.close();
    const error = await failure(fetchUrl(`${closed.origin}/`, open));
    expect(error.reason).toBe('network');
    expect(error.message).toBe(`${closed.origin}/ could not be reached: connection refused (ECONNREFUSED)`);
  });
});

describe('fetchUrl name resolution', () => {
  it('connects to the address the guard checked, keeping the name in the Host header', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return host === 'site.test' ? ['127.0.0.1'] : [];
    };
    const fetched = await fetchUrl(`http://site.test:${site.port}/hello`, { allowPrivate: true, resolve });
    expect(fetched.body.toString()).toContain('hello');
    expect(site.headers.get('/hello')?.host).toBe(`site.test:${site.port}`);
    expect(asked).toEqual(['site.test']); // one lookup: the connection reuses the checked answer
  });

  it('resolves and checks every hop of a redirect', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return ['127.0.0.1'];
    };
    const fetched = await fetchUrl(`http://first.test:${site.port}/to-named`, { allowPrivate: true, resolve });
    expect(fetched.url).toBe(`http://second.test:${site.port}/hello`);
    expect(asked).toEqual(['first.test', 'second.test']);
  });

  it('answers only the pinned addresses to the connection, by family', () => {
    const lookup = pinnedLookup(['::1', '127.0.0.1']);
    const answers: unknown[] = [];
    lookup('anything.test', { all: true }, (error, address) => answers.push([error, address]));
    lookup('anything.test', { family: 4 }, (error, address, family) => answers.push([error, address, family]));
    lookup('anything.test', { family: 6, all: true }, (error, address) => answers.push([error, address]));
    expect(answers).toEqual([
      [
        null,
        [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ],
      ],
      [null, '127.0.0.1', 4],
      [null, [{ address: '::1', family: 6 }]],
    ]);
    pinnedLookup(['127.0.0.1'])('x.test', { family: 6 }, (error) => expect(error?.code).toBe('ENOTFOUND'));
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const before = site.hits.length;
    const resolve = async () => ['203.0.113.9', '127.0.0.1'];
    const error = await failure(fetchUrl(`http://rebind.test:${site.port}/hello`, { allowPrivate: false, resolve }));
    expect(error.message).toBe(`refused: http://rebind.test:${site.port}/hello host 'rebind.test' does not resolve to a public address`);
    expect(site.hits.length).toBe(before);
  });

  it('connects a name spelled with a trailing dot to the addresses the guard checked, not a second lookup', async () => {
    // A rebinding resolver: the first answer is the site here, every later one an address where nothing
    // listens. The guard resolves once even with private addresses allowed (so this runs on loopback only;
    // test/unit/webhooks/address-guard.test.ts shows the dotted spelling is checked once with them refused).
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? ['127.0.0.1'] : ['127.0.0.9'];
    };
    const before = site.hits.length;
    const fetched = await fetchUrl(`http://name.example.:${site.port}/hello`, { allowPrivate: true, resolve });
    expect(fetched.body.toString()).toContain('hello');
    expect(asked).toEqual(['name.example']);
    expect(site.hits.length).toBe(before + 1);
  });

  it('connects every redirect hop to the addresses checked for it, even when the name answers differently later', async () => {
    const answers = new Map<string, string[][]>([
      ['first.test', [['127.0.0.1']]],
      ['second.test', [['127.0.0.1'], ['127.0.0.9']]],
    ]);
    const resolve = async (host: string) => answers.get(host)?.shift() ?? ['127.0.0.9'];
    const fetched = await fetchUrl(`http://first.test.:${site.port}/to-named`, { allowPrivate: true, resolve });
    expect(fetched.body.toString()).toContain('hello');
    expect(answers.get('second.test')).toEqual([['127.0.0.9']]);
  });

  it('tells a name that does not exist from a resolver that fails', async () => {
    const missing = await failure(fetchUrl('http://missing.test/', { allowPrivate: true, resolve: async () => [] }));
    expect(missing.reason).toBe('unresolvable');
    expect(missing.message).toBe("http://missing.test/ cannot be reached: host 'missing.test' does not resolve");
    const resolve = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.test'), { code: 'EAI_AGAIN' });
    };
    const flaky = await failure(fetchUrl('http://flaky.test/', { allowPrivate: true, resolve }));
    expect([flaky.reason, flaky.retryable]).toEqual(['dns_failed', true]);
  });
});

describe('conditional requests', () => {
  it('sends the validators held and answers 304 with an empty body', async () => {
    const local = await startSite({
      '/doc': (request, response) => {
        if (request.headers['if-none-match'] === '"v1"') {
          response.writeHead(304);
          response.end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"', 'last-modified': 'Tue, 01 Sep 2026 10:00:00 GMT' });
        response.end('<p>hello</p>');
      },
    });
    try {
      const first = await fetchUrl(`${local.origin}/doc`, { allowPrivate: true });
      expect(first.status).toBe(200);
      expect(first.headers.etag).toBe('"v1"');
      const second = await fetchUrl(`${local.origin}/doc`, {
        allowPrivate: true,
        conditional: { etag: '"v1"', lastModified: 'Tue, 01 Sep 2026 10:00:00 GMT' },
      });
      expect(second.status).toBe(304);
      expect(second.body.length).toBe(0);
      expect(local.headers.get('/doc')?.['if-modified-since']).toBe('Tue, 01 Sep 2026 10:00:00 GMT');
    } finally {
      await local.close();
    }
  });
});
