/** Accounts and their keys: create, bootstrap from KMEM_API_KEY, authenticate a request. */
import { randomBytes } from 'node:crypto';
import { generateApiKey, keyMatches, lookupIdOf, newKeyRecord } from '../api-keys';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors';
import type { Account } from '../model';
import type { AccountStore, ApiKeyStore, Clock, IdGenerator } from '../ports';

export interface AccountDeps {
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  clock: Clock;
  ids: IdGenerator;
  config: { defaultTokenLimit: number };
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const BOOTSTRAP_ACCOUNT = 'default';

export async function createAccount(deps: AccountDeps, name: string): Promise<{ account: Account; apiKey: string }> {
  if (!ACCOUNT_NAME.test(name)) {
    throw BadRequestError.forField('name', 'must be 1-64 letters, digits, dots, dashes or underscores');
  }
  const account = newAccount(deps, name);
  try {
    await deps.accounts.create(account);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('name', `account '${name}' already exists`);
    throw error;
  }
  const apiKey = generateApiKey();
  await deps.apiKeys.put(newKeyRecord(apiKey, account.id, account.createdAt));
  return { account, apiKey };
}

/**
 * Makes sure some account holds exactly `apiKey` (creating the 'default' account if needed). The account
 * records it as its bootstrap key; the bootstrap key it held before (KMEM_API_KEY changed) is revoked.
 */
export async function ensureAccountWithKey(deps: AccountDeps, apiKey: string): Promise<Account> {
  const lookupId = lookupIdOf(apiKey);
  const existing = await deps.apiKeys.find(lookupId);
  if (existing && keyMatches(existing, apiKey)) {
    if (existing.revokedAt) {
      throw BadRequestError.forField(
        'KMEM_API_KEY',
        `was revoked at ${existing.revokedAt}; set a new key (npm run kmem -- accounts keys create NAME)`,
      );
    }
    const account = await deps.accounts.get(existing.accountId);
    if (account) return recordBootstrapKey(deps, account, lookupId);
  }
  let account = await deps.accounts.findByName(BOOTSTRAP_ACCOUNT);
  if (!account) {
    account = newAccount(deps, BOOTSTRAP_ACCOUNT);
    await deps.accounts.create(account);
  }
  await deps.apiKeys.put(newKeyRecord(apiKey, account.id, deps.clock.now().toISOString()));
  return recordBootstrapKey(deps, account, lookupId);
}

/** Records the account's bootstrap key, revoking the one it replaces (after the new one works). */
async function recordBootstrapKey(deps: AccountDeps, account: Account, lookupId: string): Promise<Account> {
  if (account.bootstrapKeyId === lookupId) return account;
  if (account.bootstrapKeyId) await deps.apiKeys.revoke(account.id, account.bootstrapKeyId, deps.clock.now().toISOString());
  await deps.accounts.setBootstrapKey(account.id, lookupId);
  return { ...account, bootstrapKeyId: lookupId };
}

/** The account a key resolved to (its token budget included). */
export async function getAccount(deps: Pick<AccountDeps, 'accounts'>, accountId: string): Promise<Account> {
  const account = await deps.accounts.get(accountId);
  if (!account) throw NotFoundError.of('account', accountId);
  return account;
}

/** Resolves the X-API-Key header to an account id: absent is unauthorized, anything unknown forbidden. */
export async function authenticate(apiKeys: ApiKeyStore, header: string | undefined): Promise<string> {
  if (header === undefined || header.trim() === '') {
    throw new UnauthorizedError('X-API-Key: header is missing (or send the key as Authorization: Bearer <key>)');
  }
  const record = await apiKeys.find(lookupIdOf(header));
  if (!record || !keyMatches(record, header)) throw new ForbiddenError('X-API-Key: is not a valid API key');
  if (record.revokedAt) throw new ForbiddenError('X-API-Key: was revoked');
  return record.accountId;
}

function newAccount(deps: AccountDeps, name: string): Account {
  return {
    id: deps.ids.uuid(),
    name,
    totalTokenLimit: deps.config.defaultTokenLimit,
    tokensRemaining: deps.config.defaultTokenLimit,
    webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
    createdAt: deps.clock.now().toISOString(),
  };
}
