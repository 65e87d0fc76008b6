/**
 * The safe HTTP fetcher of every outbound request to an address a client gave us (pages, sitemaps,
 * robots.txt): the address guard on every hop, connections pinned to the checked addresses, bounded
 * redirects, connect and total timeouts, a size cap enforced while streaming, and a content-type check.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { ACCEPT_ENCODING, readBody } from './body-reader';
import type { MediaType } from './content-type';
import { acceptHeader, isAccepted, parseMediaType } from './content-type';
import { displayUrl, FetchError } from './errors';
import { formatDuration } from '../wording';
import type { FetchOptions, ResolvedFetchOptions } from './fetch-options';
import { KMEM_USER_AGENT, resolveFetchOptions } from './fetch-options';
import { guardHop } from './hop-guard';
import { sendPinnedRequest } from './pinned-request';

export interface FetchedResource {
  /** The address asked for. */
  requestedUrl: string;
  /** The address that answered, after redirects. */
  url: string;
  /** Every redirect target followed, in order. */
  redirects: string[];
  status: number;
  /** Undefined when the server sent no Content-Type. */
  mediaType: MediaType | undefined;
  headers: IncomingHttpHeaders;
  /** The body after content-encoding was undone. */
  body: Buffer;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GETs `url` under `options`; throws a FetchError for anything but an acceptable 2xx answer. */
export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchedResource> {
  const resolved = resolveFetchOptions(options);
  const { totalTimeoutMs } = resolved.limits;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(totalTimeout(url, totalTimeoutMs)), totalTimeoutMs);
  try {
    return await followRedirects(url, resolved, controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}

async function followRedirects(url: string, options: ResolvedFetchOptions, signal: AbortSignal): Promise<FetchedResource> {
  const redirects: string[] = [];
  let current = url;
  for (;;) {
    const redirectedFrom = redirects.length > 0 ? url : undefined;
    const { allowPrivate, resolve } = options;
    const hop = await guardHop(current, { allowPrivate, resolve, redirectedFrom });
    const response = await sendPinnedRequest({
      url: hop.url,
      addresses: hop.addresses,
      headers: requestHeaders(options),
      connectTimeoutMs: options.limits.connectTimeoutMs,
      signal,
    });
    const status = response.statusCode ?? 0;
    if (!REDIRECT_STATUSES.has(status)) return accept(url, hop.url.href, redirects, response, options);
    response.destroy();
    current = redirectTarget(response, hop.url, url, redirects.length, options);
    redirects.push(current);
  }
}

function requestHeaders(options: ResolvedFetchOptions): Record<string, string> {
  return {
    'user-agent': KMEM_USER_AGENT,
    accept: acceptHeader(options.expect),
    'accept-encoding': ACCEPT_ENCODING,
    ...(options.conditional?.etag ? { 'if-none-match': options.conditional.etag } : {}),
    ...(options.conditional?.lastModified ? { 'if-modified-since': options.conditional.lastModified } : {}),
  };
}

/** The next address of a redirect, after the redirect limit and the caller's own filter. */
function redirectTarget(response: IncomingMessage, from: URL, requested: string, followed: number, options: ResolvedFetchOptions): string {
  const location = response.headers.location;
  if (!location) throw statusError(from.href, response.statusCode ?? 0, ' without a Location');
  if (followed >= options.limits.maxRedirects) {
    const message = `${displayUrl(requested)} redirected more than ${options.limits.maxRedirects} times`;
    throw new FetchError('too_many_redirects', message, { url: from.href });
  }
  const target = URL.canParse(location, from.href) ? new URL(location, from) : undefined;
  if (!target) {
    throw new FetchError('refused', `refused: ${displayUrl(from)} redirected to an invalid address`, { url: from.href });
  }
  target.hash = '';
  const refusal = options.checkRedirect(target);
  if (refusal !== undefined) {
    throw new FetchError('refused', `refused: ${displayUrl(from)} redirected to ${displayUrl(target)}, ${refusal}`, {
      url: target.href,
    });
  }
  return target.href;
}

/** Checks the final answer's status and content type, then reads its body under the size cap. */
async function accept(
  requestedUrl: string,
  url: string,
  redirects: string[],
  response: IncomingMessage,
  options: ResolvedFetchOptions,
): Promise<FetchedResource> {
  const status = response.statusCode ?? 0;
  if (status === 304 && options.conditional) {
    response.destroy(); // not modified: the copy held is current
    return { requestedUrl, url, redirects, status, mediaType: undefined, headers: response.headers, body: Buffer.alloc(0) };
  }
  if (status < 200 || status > 299) {
    response.destroy();
    throw statusError(url, status);
  }
  const mediaType = parseMediaType(response.headers['content-type']);
  if (options.expect && !isAccepted(mediaType, options.expect)) {
    response.destroy();
    const message = `${displayUrl(url)} is not ${options.expect.description} (content-type ${mediaType?.type})`;
    throw new FetchError('content_type', message, { url });
  }
  const body = await readBody(response, url, options.limits.maxBytes);
  return { requestedUrl, url, redirects, status, mediaType, headers: response.headers, body };
}

function statusError(url: string, status: number, detail = ''): FetchError {
  const text = STATUS_CODES[status] ?? 'an unknown status';
  return new FetchError('http_status', `${displayUrl(url)} answered ${status} ${text}${detail}`, { url, status });
}

function totalTimeout(url: string, ms: number): FetchError {
  return new FetchError('timeout', `${displayUrl(url)} timed out after ${formatDuration(ms)}`, { url });
}
