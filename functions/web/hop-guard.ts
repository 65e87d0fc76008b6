/**
 * The address guard applied to one hop of a fetch. The host is resolved once; the guard checks those
 * addresses and the connection is made to them (see pinned-request.ts), so a name that answers a public
 * address to the check and a private one to the connection (DNS rebinding) gets nowhere.
 */
import { isIP } from 'node:net';
import { assertFetchable, HostResolutionError, UnsafeAddressError } from '../core/net/address-guard';
import { displayUrl, FetchError } from './errors';

/** A hop that passed the guard: the parsed address and the host's checked addresses to connect to. */
export interface GuardedHop {
  url: URL;
  addresses: string[];
}

const FIELD = 'address';

/**
 * Checks `url` may be fetched and resolves its host. `redirectedFrom` names the original address in
 * errors. Throws a FetchError: refused, unresolvable, or dns_failed when the resolver itself fails.
 */
export async function guardHop(
  url: string,
  options: { allowPrivate: boolean; resolve: (host: string) => Promise<string[]>; redirectedFrom?: string },
): Promise<GuardedHop> {
  const lookups = new Map<string, Promise<string[]>>();
  const resolveOnce = (host: string): Promise<string[]> => {
    const known = lookups.get(host) ?? options.resolve(host);
    lookups.set(host, known);
    return known;
  };
  try {
    const { allowPrivate } = options;
    const parsed = await assertFetchable(url, { allowPrivate, resolve: resolveOnce, field: FIELD });
    const host = bareHost(parsed.hostname);
    const addresses = isIP(host) !== 0 ? [host] : await resolveOnce(host);
    if (addresses.length === 0) throw new HostResolutionError(`${FIELD}: host '${host}' does not resolve`);
    return { url: parsed, addresses };
  } catch (error) {
    throw guardFailure(error, url, options.redirectedFrom);
  }
}

function guardFailure(error: unknown, url: string, redirectedFrom: string | undefined): FetchError {
  const where = redirectedFrom ? ` (redirected from ${displayUrl(redirectedFrom)})` : '';
  const problem = error instanceof Error ? error.message.replace(`${FIELD}: `, '') : String(error);
  const shown = displayUrl(url);
  if (error instanceof UnsafeAddressError) {
    return new FetchError('refused', `refused: ${shown} ${problem}${where}`, { url, cause: error });
  }
  if (error instanceof HostResolutionError) {
    return new FetchError('unresolvable', `${shown} cannot be reached: ${problem}${where}`, { url, cause: error });
  }
  const message = `${shown} cannot be reached: name lookup failed (${problem})${where}`;
  return new FetchError('dns_failed', message, { url, cause: error });
}

function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
