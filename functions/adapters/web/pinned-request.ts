/**
 * One request (a GET of the fetcher, a webhook's POST) over node:http(s) to addresses checked beforehand: the `lookup` hook answers the guarded
 * addresses instead of asking DNS again, while the URL's host still names the site (Host header, TLS
 * server name and certificate check). No connection reuse, so every request connects where it was told.
 */
import type { IncomingMessage } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { displayUrl, FetchError } from './errors';
import { formatDuration } from '../wording';

export interface PinnedRequest {
  url: URL;
  /** The guarded addresses of the URL's host; the connection goes to one of them. */
  addresses: readonly string[];
  headers: Record<string, string>;
  /** GET unless told; a POST sends `body`. */
  method?: 'GET' | 'POST';
  body?: string;
  connectTimeoutMs: number;
  /** Aborts the request and its body; the abort reason is thrown. */
  signal: AbortSignal;
}

/** Sends the request and answers the response head; its body is still to be read. */
export function sendPinnedRequest(request: PinnedRequest): Promise<IncomingMessage> {
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      agent: false,
      lookup: pinnedLookup(request.addresses),
      signal: request.signal,
    });
    outgoing.once('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => outgoing.destroy(connectTimeout(request)), request.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    outgoing.once('response', resolve);
    outgoing.once('error', (error) => reject(requestFailure(error, request)));
    outgoing.end(request.body);
  });
}

/** A lookup that answers the given addresses, honouring the family and `all` the caller asks for. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const entries = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((entry) => entry.family !== 0 && (family === 0 || entry.family === family));
    const first = entries[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no address of family ${family}`);
      error.code = 'ENOTFOUND';
      callback(error, '');
    } else if (options.all) callback(null, entries);
    else callback(null, first.address, first.family);
  };
}

function connectTimeout(request: PinnedRequest): FetchError {
  const url = request.url.href;
  const within = formatDuration(request.connectTimeoutMs);
  const message = `${displayUrl(url)} could not be reached: no connection within ${within}`;
  return new FetchError('timeout', message, { url });
}

/** The abort reason (our timeout), our own FetchError, or a network failure named by its code. */
function requestFailure(error: unknown, request: PinnedRequest): unknown {
  if (request.signal.aborted) return request.signal.reason;
  if (error instanceof FetchError) return error;
  const url = request.url.href;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const detail = code ? `${NETWORK_PROBLEMS[code] ?? 'network error'} (${code})` : errorText(error);
  return new FetchError('network', `${displayUrl(url)} could not be reached: ${detail}`, { url, cause: error });
}

const NETWORK_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  HPE_INVALID_CONSTANT: 'not a valid HTTP answer',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
