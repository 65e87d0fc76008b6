/** The name of a memory's (or an account's message) vector index: the tier's one key composition. */
import { createHash } from 'node:crypto';
import type { VectorIndexRef } from './ports';

/** A generation: the index version whose build made it, and 8 hex digits telling apart builds of the same version. */
const GENERATION = /^v(\d{1,10})-[0-9a-f]{8}$/;

/**
 * The index of `ref`: `m-` (a memory) or `s-` (an account's messages) and 40 hex digits of a SHA-256 of the
 * account and the memory, then `-` and the generation when the ref names one; within S3 Vectors' index
 * names (3-63 lowercase letters, digits, dashes, dots: at most 62 here).
 */
export function vectorIndexName(ref: VectorIndexRef): string {
  const base = 'memoryId' in ref ? `m-${digest(`${ref.accountId}/${ref.memoryId}`)}` : `s-${digest(`${ref.accountId}/messages`)}`;
  return ref.generation ? `${base}-${ref.generation}` : base;
}

/** The ref without its generation: the name every generation of the index starts with. */
export function baseRef(ref: VectorIndexRef): VectorIndexRef {
  return 'memoryId' in ref ? { accountId: ref.accountId, memoryId: ref.memoryId } : { accountId: ref.accountId, messages: true };
}

/** The generation a build of index version `version` makes, from a random hex string (a uuid). */
export function newGeneration(version: number, random: string): string {
  return `v${version}-${random
    .replace(/[^0-9a-f]/g, '')
    .slice(0, 8)
    .padEnd(8, '0')}`;
}

export const isGeneration = (text: string): boolean => GENERATION.test(text);

/** The index version whose build made a generation; 0 for the name without one (made before generations). */
export function generationVersion(generation: string): number {
  return Number(GENERATION.exec(generation)?.[1] ?? 0);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}
