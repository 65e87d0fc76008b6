/**
 * What a caller of the fetcher decides: whether private addresses are allowed, the limits, the content it
 * accepts. Callers build this from Config (functions/config/); nothing here reads the environment.
 */
import { resolveHost } from '../net/dns-resolver';
import type { ExpectedContent } from './content-type';
import { withDefaults } from './defaults';

/** Sent with every request; robots.txt groups for `kmem` apply to us. Keep the version in step with package.json. */
export const KMEM_USER_AGENT = 'kmem/0.1.0 (knowledge memory service; self-hosted fetcher)';

interface FetchLimits {
  /** Time allowed to open the connection of one hop. */
  connectTimeoutMs: number;
  /** Time allowed for the whole fetch: every redirect hop and the body. */
  totalTimeoutMs: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
  /** Largest body accepted, counted after decompression. */
  maxBytes: number;
}

const DEFAULT_FETCH_LIMITS: FetchLimits = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxRedirects: 5,
  maxBytes: 10 * 1024 * 1024,
};

export interface FetchOptions {
  /** Allow loopback, private, link-local and metadata addresses (KMEM_ALLOW_PRIVATE_URLS). */
  allowPrivate: boolean;
  limits?: Partial<FetchLimits>;
  /** The content accepted; any content type when absent. */
  expect?: ExpectedContent;
  /** Every address of a host name, [] when it does not exist; the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * Asked before following each redirect (the address guard then checks the target as on every hop);
   * answers why the target is refused (`which leaves example.com`), or undefined to follow it. The crawler
   * keeps to one host and to robots.txt with it.
   */
  checkRedirect?: (target: URL) => string | undefined;
  /** Validators of a copy already held: sent as If-None-Match / If-Modified-Since; a 304 answers an empty body. */
  conditional?: { etag?: string; lastModified?: string };
}

/** The options with every default filled in. */
export interface ResolvedFetchOptions {
  allowPrivate: boolean;
  limits: FetchLimits;
  expect: ExpectedContent | undefined;
  resolve: (host: string) => Promise<string[]>;
  checkRedirect: (target: URL) => string | undefined;
  conditional: { etag?: string; lastModified?: string } | undefined;
}

export function resolveFetchOptions(options: FetchOptions): ResolvedFetchOptions {
  return {
    allowPrivate: options.allowPrivate,
    limits: withDefaults(DEFAULT_FETCH_LIMITS, options.limits),
    expect: options.expect,
    resolve: options.resolve ?? resolveHost,
    checkRedirect: options.checkRedirect ?? (() => undefined),
    conditional: options.conditional,
  };
}
