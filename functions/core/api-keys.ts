/**
 * API keys: random secrets shown once, stored as a salted SHA-256 verifier, found by a lookup id
 * derived from the key and compared in constant time. Generated keys carry 256 random bits; an operator's
 * KMEM_API_KEY must be 32 characters or more (functions/config/), so a fast hash cannot be searched.
 * Keys stored before that rule still verify: the verifier's form is unchanged.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from './model';

export function generateApiKey(): string {
  return `kmem_${randomBytes(32).toString('base64url')}`;
}

export function lookupIdOf(apiKey: string): string {
  return createHash('sha256').update(`lookup:${apiKey}`).digest('hex').slice(0, 32);
}

export function newKeyRecord(apiKey: string, accountId: string, createdAt: string): ApiKeyRecord {
  const salt = randomBytes(16).toString('hex');
  return { lookupId: lookupIdOf(apiKey), verifier: verifierOf(salt, apiKey), salt, accountId, createdAt };
}

export function keyMatches(record: ApiKeyRecord, apiKey: string): boolean {
  const expected = Buffer.from(record.verifier, 'hex');
  const actual = Buffer.from(verifierOf(record.salt, apiKey), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function verifierOf(salt: string, apiKey: string): string {
  return createHash('sha256').update(salt).update(apiKey).digest('hex');
}
