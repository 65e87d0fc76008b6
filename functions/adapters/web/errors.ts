/**
 * The one error class of functions/adapters/web: every failure to fetch or read a web address is a FetchError
 * whose message a person understands ("https://x/y answered 404 Not Found") and whose `reason` a program
 * can branch on (retry a timeout later, give up on a refusal).
 */

import { InternalError } from '../../core/errors';
import { shorten } from '../wording';

/** Why a fetch failed. */
export type FetchFailure =
  | 'refused' // the address guard (or a redirect filter) refused the address
  | 'unresolvable' // the host name has no address
  | 'dns_failed' // the resolver itself failed; may work later
  | 'network' // connection refused or reset, TLS failure
  | 'timeout'
  | 'too_many_redirects'
  | 'http_status' // the server answered, but not with 2xx
  | 'too_large'
  | 'content_type'
  | 'unreadable'; // undecodable compression, or content that is not what it claims to be

const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

export class FetchError extends InternalError {
  override readonly name: string = 'FetchError';
  readonly reason: FetchFailure;
  /** The address that failed (the redirect target when a redirect failed). */
  readonly url: string;
  /** The HTTP status, when the failure is one. */
  readonly status?: number;

  constructor(reason: FetchFailure, message: string, options: { url: string; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.url = options.url;
    if (options.status !== undefined) this.status = options.status;
  }

  /** True when trying again later may succeed (timeouts, network and DNS failures, 429 and 5xx answers). */
  get retryable(): boolean {
    if (this.reason === 'http_status') return this.status !== undefined && RETRYABLE_STATUSES.has(this.status);
    return this.reason === 'timeout' || this.reason === 'network' || this.reason === 'dns_failed';
  }
}

/** An address shortened for messages: long query strings should not drown the problem. */
export function displayUrl(url: string | URL): string {
  return shorten(String(url));
}
