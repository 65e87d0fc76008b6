/**
 * The address guard applied to one hop of a fetch. The host is resolved once; the guard checks those
 * addresses and answers them, and the connection is made to them (see pinned-request.ts), so a name that
 * answers a public address to the check and a private one to the connection (DNS rebinding), or one
 * spelled with a trailing dot, gets nowhere.
 */
import { guardAddress, type GuardedAddress, HostResolutionError, UnsafeAddressError } from '../../core/net/address-guard';
import { displayUrl, FetchError } from './errors';

/** A hop that passed the guard: the parsed address and the host's checked addresses to connect to. */
export type GuardedHop = GuardedAddress;

const FIELD = 'address';

/**
 * Checks `url` may be fetched and resolves its host. `redirectedFrom` names the original address in
 * errors. Throws a FetchError: refused, unresolvable, or dns_failed when the resolver itself fails.
 */
export async function guardHop(
  url: string,
  options: { allowPrivate: boolean; resolve: (host: string) => Promise<string[]>; redirectedFrom?: string },
): Promise<GuardedHop> {
  try {
    const { allowPrivate, resolve } = options;
    return await guardAddress(url, { allowPrivate, resolve, field: FIELD });
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
