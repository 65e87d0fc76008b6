/**
 * Reading a response body: undoing gzip, deflate or brotli content-encoding, and stopping as soon as the
 * decoded body passes the size cap (so neither a huge page nor a compression bomb fills memory).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { displayUrl, FetchError } from './errors';
import { formatBytes } from '../wording';

/** The Accept-Encoding we send: what decoderFor understands. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The decoded body of `response`, at most `maxBytes` long. Throws a FetchError: too_large (the stream is
 * destroyed at once), unreadable for a bad or unsupported encoding, network when the connection breaks.
 * An abort (the total timeout) surfaces as a network error here; fetchUrl answers the abort reason instead.
 */
export async function readBody(response: IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (!response.headers['content-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(url, maxBytes);
  }
  const decoded = decodedStream(response, url);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of decoded) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      total += bytes.length;
      if (total > maxBytes) throw tooLarge(url, maxBytes);
      chunks.push(bytes);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof FetchError) throw error;
    if (isZlibError(error)) throw unreadable(url, 'its compressed body is corrupt', error);
    throw new FetchError('network', `${displayUrl(url)} could not be read: the connection was cut`, { url, cause: error });
  }
  return Buffer.concat(chunks, total);
}

/** The response itself, or a decoder fed by it that fails when the response does. */
function decodedStream(response: IncomingMessage, url: string): Readable {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = decoderFor(encoding);
  if (decoder === 'identity') return response;
  if (decoder === undefined) {
    response.destroy();
    throw unreadable(url, `it uses an unsupported content-encoding (${encoding})`);
  }
  return pipeline(response, decoder, () => undefined);
}

function decoderFor(encoding: string): Transform | 'identity' | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return 'identity';
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      return zlib.createUnzip(); // gzip or zlib-wrapped deflate, detected from the header
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function isZlibError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && /^(?:Z_|ERR__)/.test(String(error.code));
}

function tooLarge(url: string, maxBytes: number): FetchError {
  return new FetchError('too_large', `${displayUrl(url)} is larger than ${formatBytes(maxBytes)}`, { url });
}

function unreadable(url: string, problem: string, cause?: unknown): FetchError {
  return new FetchError('unreadable', `${displayUrl(url)} cannot be read: ${problem}`, { url, cause });
}
