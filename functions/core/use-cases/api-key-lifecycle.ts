/**
 * An account's API keys over their life: list, create, revoke, rotate (create a new key, revoke the old).
 * A key is named by its id, the lookup id stored beside it (a hash of the key, never the key itself).
 * Revocation marks the key; warm containers that cached it accept it until their cache time ends
 * (KMEM_AUTH_CACHE_SECONDS), and KMEM_API_KEY can never bring a revoked key back.
 */
import { generateApiKey, newKeyRecord } from '../api-keys';
import { BadRequestError, NotFoundError } from '../errors';
import type { Account, ApiKeyRecord } from '../model';
import type { AccountDeps } from './accounts';

export interface KeySummary {
  keyId: string;
  createdAt: string;
  revokedAt: string | null;
}

const summaryOf = (record: ApiKeyRecord): KeySummary => ({
  keyId: record.lookupId,
  createdAt: record.createdAt,
  revokedAt: record.revokedAt ?? null,
});

async function accountNamed(deps: AccountDeps, name: string): Promise<Account> {
  const account = await deps.accounts.findByName(name);
  if (!account) throw NotFoundError.of('account', name);
  return account;
}

export async function listKeys(deps: AccountDeps, accountName: string): Promise<KeySummary[]> {
  const account = await accountNamed(deps, accountName);
  return (await deps.apiKeys.listOf(account.id)).map(summaryOf);
}

/** A new key of the account; the plain key is in the answer and nowhere else. */
export async function createKey(deps: AccountDeps, accountName: string): Promise<{ apiKey: string; key: KeySummary }> {
  const account = await accountNamed(deps, accountName);
  const apiKey = generateApiKey();
  const record = newKeyRecord(apiKey, account.id, deps.clock.now().toISOString());
  await deps.apiKeys.put(record);
  return { apiKey, key: summaryOf(record) };
}

export async function revokeKey(deps: AccountDeps, accountName: string, keyId: string): Promise<KeySummary> {
  const account = await accountNamed(deps, accountName);
  const revoked = await deps.apiKeys.revoke(account.id, keyId, deps.clock.now().toISOString());
  if (!revoked) throw BadRequestError.forField('keyId', `account '${accountName}' has no key ${keyId}`);
  return summaryOf(revoked);
}

/** Creates the replacement first, so the account is never without a working key. */
export async function rotateKey(
  deps: AccountDeps,
  accountName: string,
  keyId: string,
): Promise<{ apiKey: string; key: KeySummary; revoked: KeySummary }> {
  const account = await accountNamed(deps, accountName);
  const current = await deps.apiKeys.find(keyId);
  if (current?.accountId !== account.id || current.revokedAt)
    throw BadRequestError.forField('keyId', `account '${accountName}' has no live key ${keyId}`);
  const created = await createKey(deps, accountName);
  return { ...created, revoked: await revokeKey(deps, accountName, keyId) };
}
