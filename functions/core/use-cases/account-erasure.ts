/**
 * Erasing an account (`npm run kmem -- accounts delete NAME`): everything it owns leaves both stores —
 * every table item under its keys (users, sessions, messages, files, memories, graphs, jobs, imports,
 * exports, webhooks, counters), every object under its prefixes (raw bytes, extracted text, chunk lists,
 * index builds and segments, message indexes, summaries, export archives, uploads, staged batches) — and
 * its keys stop working.
 *
 * In order: the account is marked as being deleted (the worker drops its work from then on) and its keys
 * revoked (running services stop accepting them within their key cache time); both stores are swept; after
 * `settleMs` (for requests a key cache still let in and work already running) they are swept again; last,
 * the account's item, its name and its keys' records go. A run that failed can be run again by name.
 */
import { NotFoundError } from '../errors';
import type { Account } from '../model';
import { objectKeys } from '../object-keys';
import type { AccountErasureStore } from '../account-erasure-port';
import type { AccountStore, ApiKeyStore, Clock, ObjectStore } from '../ports';

export interface AccountErasureDeps {
  accounts: Pick<AccountStore, 'findByName'>;
  apiKeys: Pick<ApiKeyStore, 'listOf' | 'revoke'>;
  accountErasure: AccountErasureStore;
  objects: Pick<ObjectStore, 'deletePrefix'>;
  clock: Clock;
}

export interface AccountErasure {
  account: Pick<Account, 'id' | 'name'>;
  keysRevoked: number;
  /** Objects and items deleted by both sweeps (the account's own item, name and key records aside). */
  objectsDeleted: number;
  itemsDeleted: number;
}

export interface ErasureTiming {
  /** Between the two sweeps. */
  settleMs: number;
  wait: (ms: number) => Promise<void>;
}

export async function eraseAccount(deps: AccountErasureDeps, name: string, timing: ErasureTiming): Promise<AccountErasure> {
  const account = await deps.accounts.findByName(name);
  if (!account) throw NotFoundError.of('account', name);
  await deps.accountErasure.markDeleting(account.id, deps.clock.now().toISOString());
  const keys = await deps.apiKeys.listOf(account.id);
  let keysRevoked = 0;
  for (const key of keys.filter((record) => !record.revokedAt)) {
    if (await deps.apiKeys.revoke(account.id, key.lookupId, deps.clock.now().toISOString())) keysRevoked++;
  }
  const first = await sweep(deps, account.id);
  await timing.wait(timing.settleMs);
  const second = await sweep(deps, account.id);
  await deps.accountErasure.deleteAccount(
    account.id,
    account.name,
    keys.map((key) => key.lookupId),
  );
  return {
    account: { id: account.id, name: account.name },
    keysRevoked,
    objectsDeleted: first.objects + second.objects,
    itemsDeleted: first.items + second.items,
  };
}

/** Deletes every object under the account's prefixes and every item under its keys but its own. */
async function sweep(deps: AccountErasureDeps, accountId: string): Promise<{ objects: number; items: number }> {
  let objects = 0;
  for (const prefix of objectKeys.accountPrefixes(accountId)) objects += await deps.objects.deletePrefix(prefix);
  const items = await deps.accountErasure.deleteTenantItems(accountId);
  return { objects, items };
}
