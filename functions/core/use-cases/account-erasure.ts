/**
 * Erasing an account (`npm run kmem -- accounts delete NAME`): everything it owns leaves both stores —
 * every table item under its keys (users, sessions, messages, files, memories, graphs, jobs, imports,
 * exports, webhooks, counters), every object under its prefixes (raw bytes, extracted text, chunk lists,
 * index builds and segments, message indexes, summaries, export archives, uploads, staged batches) — and
 * its keys stop working.
 *
 * In order: the account is marked as being deleted (the worker drops its work from then on) and its keys
 * revoked (running services stop accepting them within their key cache time); its memories' vector indexes
 * are dropped (a stage with the S3 Vectors tier: docs/scale.md); both stores are swept; after
 * `settleMs` (for requests a key cache still let in and work already running) they are swept again; last,
 * the account's item, its name and its keys' records go. A run that failed can be run again by name.
 */
import { NotFoundError } from '../errors';
import type { Account } from '../model';
import { objectKeys } from '../object-keys';
import type { AccountErasureStore } from '../accounts/ports';
import type { AccountStore, ApiKeyStore, Clock, MemoryStore, ObjectStore } from '../ports';
import { dropEveryGeneration } from '../vector-tier/generations';
import type { VectorTierSetup } from '../vector-tier/ports';

export interface AccountErasureDeps {
  accounts: Pick<AccountStore, 'findByName'>;
  apiKeys: Pick<ApiKeyStore, 'listOf' | 'revoke'>;
  accountErasure: AccountErasureStore;
  objects: Pick<ObjectStore, 'deletePrefix'>;
  memories: Pick<MemoryStore, 'list'>;
  /** The stage's vector tier, when it has one: the account's memories' indexes are dropped first. */
  vectors?: Pick<VectorTierSetup, 'tier'>;
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
  await dropVectorIndexes(deps, account.id);
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

/** Drops every memory's vector index and the message index's (an absent index is no error); read before the sweep deletes the memories. */
async function dropVectorIndexes(deps: AccountErasureDeps, accountId: string): Promise<void> {
  const tier = deps.vectors?.tier;
  if (!tier) return;
  let nextToken: string | undefined;
  do {
    const page = await deps.memories.list(accountId, undefined, { limit: 100, ...(nextToken ? { nextToken } : {}) });
    for (const memory of page.items) await dropEveryGeneration(tier, { accountId, memoryId: memory.id });
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  await dropEveryGeneration(tier, { accountId, messages: true }); // the account's message index
}

/** Deletes every object under the account's prefixes and every item under its keys but its own. */
async function sweep(deps: AccountErasureDeps, accountId: string): Promise<{ objects: number; items: number }> {
  let objects = 0;
  for (const prefix of objectKeys.accountPrefixes(accountId)) objects += await deps.objects.deletePrefix(prefix);
  const items = await deps.accountErasure.deleteTenantItems(accountId);
  return { objects, items };
}
