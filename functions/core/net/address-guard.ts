/**
 * The guard in front of every outbound request to an address a client gave us (webhooks, web pages and
 * each of their redirects): only http(s) without credentials, and, unless private addresses are allowed,
 * no host that is or resolves to a loopback, private, link-local, metadata or otherwise non-public address.
 *
 * The check is on the addresses the name resolves to, so a public-looking name pointing at 127.0.0.1 is
 * refused too. `guardAddress` answers the addresses it checked and callers connect to exactly those
 * (functions/adapters/web/pinned-request.ts), never resolving the name again: a name that changes its answer between
 * two lookups (DNS rebinding), or that is spelled another way (`name.example.`), gets nowhere.
 */
import ipaddr from 'ipaddr.js';
import { BadRequestError } from '../errors';

/** A refused address: the URL can never be fetched under the current settings (a client error). */
export class UnsafeAddressError extends BadRequestError {}

/**
 * The host name does not exist (or has no address); may change later, unlike an UnsafeAddressError. Only
 * with private addresses allowed: otherwise such a name is refused like one resolving to a private address.
 */
export class HostResolutionError extends BadRequestError {}

export interface AddressGuardOptions {
  /** Skip the address checks (KMEM_ALLOW_PRIVATE_URLS, for tests and private deployments). */
  allowPrivate: boolean;
  /** Every address of a host name; [] when the name does not exist. Throws when the resolver fails. */
  resolve: (host: string) => Promise<string[]>;
  /** The input field named in errors; defaults to `url`. */
  field?: string;
}

/** Names that reach the machine itself or a cloud metadata service, whatever DNS says. */
const INTERNAL_NAMES = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'kubernetes.default',
]);
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa', '.svc', '.cluster.local'];

/** A URL that passed the guard and the addresses of its host that were checked: connect to these only. */
export interface GuardedAddress {
  url: URL;
  addresses: string[];
}

/**
 * Parses `url` and checks it may be fetched; answers the parsed URL. Throws UnsafeAddressError for a
 * refused URL or address (a name that resolves to no public address, without saying what it resolves to),
 * HostResolutionError for a name that does not resolve when private addresses are allowed, and passes on the
 * resolver's own errors (a failing DNS server), which the caller may retry. With allowPrivate only the
 * URL's form is checked and nothing is resolved. To connect, use guardAddress instead.
 */
export async function assertFetchable(url: string, options: AddressGuardOptions): Promise<URL> {
  if (options.allowPrivate) return parseFetchable(url, options.field ?? 'url');
  return (await guardAddress(url, options)).url;
}

/**
 * As assertFetchable, and answers the host's addresses it checked (the name is resolved once, also when
 * private addresses are allowed): the connection must go to one of them, not to a second lookup's answer.
 */
export async function guardAddress(url: string, options: AddressGuardOptions): Promise<GuardedAddress> {
  const field = options.field ?? 'url';
  const parsed = parseFetchable(url, field);
  const host = bareHost(parsed.hostname);
  const literal = ipaddr.isValid(host);
  if (!options.allowPrivate) {
    if (literal && isPrivateAddress(host)) refuse(field, `is a private address (${host})`);
    if (!literal && isInternalName(host)) refuse(field, `host '${host}' is an internal name`);
  }
  const addresses = literal ? [ipaddr.parse(host).toString()] : await options.resolve(host);
  if (!options.allowPrivate && (addresses.length === 0 || addresses.some(isPrivateAddress))) {
    // one answer for both, without the address: what the resolver says about internal names stays ours
    refuse(field, `host '${host}' does not resolve to a public address`);
  }
  if (addresses.length === 0) throw new HostResolutionError(`${field}: host '${host}' does not resolve`);
  return { url: parsed, addresses };
}

/** The parsed URL when it is http(s) without credentials. */
function parseFetchable(url: string, field: string): URL {
  if (!URL.canParse(url)) refuse(field, 'is not a valid URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') refuse(field, 'must be an http or https URL');
  if (parsed.username || parsed.password) refuse(field, 'must not contain credentials');
  return parsed;
}

function refuse(field: string, problem: string): never {
  throw new UnsafeAddressError(`${field}: ${problem}`);
}

/**
 * True unless `ip` is a public unicast address: loopback, RFC 1918, link-local (with the metadata address
 * 169.254.169.254), CGNAT, unspecified, broadcast, multicast, reserved and documentation ranges, IPv6
 * loopback, ULA fc00::/7, link-local fe80::/10, and IPv6 forms embedding such an IPv4 address (mapped,
 * translated, NAT64, 6to4) are all private. Text that is not an IP address counts as private.
 */
export function isPrivateAddress(ip: string): boolean {
  const host = bareHost(ip);
  if (!ipaddr.isValid(host)) return true;
  const address = ipaddr.parse(host);
  return address.kind() === 'ipv4' ? !isPublicV4(address as ipaddr.IPv4) : !isPublicV6(address as ipaddr.IPv6);
}

/** True for names that only make sense inside a host or private network (localhost, metadata, *.internal). */
export function isInternalName(host: string): boolean {
  const name = bareHost(host).toLowerCase();
  return INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  const embedded = embeddedV4(address);
  if (embedded) return isPublicV4(embedded);
  // ::/16 holds the deprecated IPv4-compatible form (::a.b.c.d), which ipaddr calls unicast.
  return address.range() === 'unicast' && address.parts[0] !== 0;
}

/** The IPv4 address inside an IPv4-mapped, -translated, NAT64 (64:ff9b::/96) or 6to4 IPv6 address. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return fromParts(parts[6] ?? 0, parts[7] ?? 0);
    case 'rfc6052':
      // Only the well-known prefix 64:ff9b::/96 has the address in the last 32 bits; the local-use one is refused.
      return parts[2] === 0 ? fromParts(parts[6] ?? 0, parts[7] ?? 0) : new ipaddr.IPv4([0, 0, 0, 0]);
    case '6to4':
      return fromParts(parts[1] ?? 0, parts[2] ?? 0);
    default:
      return undefined;
  }
}

/** A host without IPv6 brackets or the trailing dots of a fully qualified name. */
function bareHost(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return unbracketed.replace(/\.+$/, '');
}
