/** Host name resolution for the address guard, through the system resolver (what fetch itself uses). */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Error codes meaning the name has no address, as opposed to a resolver that failed. */
const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Every address of `host` (IPv4 and IPv6, deduplicated); an IP literal (brackets allowed) is answered
 * as is. Answers [] when the name does not exist; throws when the resolver fails (EAI_AGAIN and the like).
 */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return [bare];
  try {
    const found = await lookup(bare, { all: true, verbatim: true });
    return [...new Set(found.map((entry) => entry.address))];
  } catch (error) {
    if (NOT_FOUND.has(codeOf(error))) return [];
    throw error;
  }
}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
}
