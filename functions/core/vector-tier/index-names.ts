/** The name of a memory's (or an account's message) vector index: the tier's one key composition. */
import { createHash } from 'node:crypto';
import type { VectorIndexRef } from './ports';

/**
 * The index of `ref`: `m-` (a memory) or `s-` (an account's messages) and 40 hex digits of a SHA-256 of the
 * account and the memory, within S3 Vectors' index names (3-63 lowercase letters, digits, dashes, dots).
 */
export function vectorIndexName(ref: VectorIndexRef): string {
  return 'memoryId' in ref ? `m-${digest(`${ref.accountId}/${ref.memoryId}`)}` : `s-${digest(`${ref.accountId}/messages`)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}
