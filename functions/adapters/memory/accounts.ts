/** Accounts, their API keys and their request counts, in memory (the semantics of account-repository.ts). */
import { ConflictError } from '../../core/errors';
import type { Account, ApiKeyRecord } from '../../core/model';
import type { AccountStore, ApiKeyStore, RequestCounter } from '../../core/ports';
import { AccountRecords, byCreation, compare, copy } from './records';

export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<string, Account>();
  private readonly names = new Map<string, string>();
  /** Jobs refunded and not yet settled, by account: a redelivered refund finds its job here. */
  private readonly refunded = new Map<string, Set<string>>();

  async create(account: Account): Promise<void> {
    if (this.names.has(account.name) || this.accounts.has(account.id)) throw new ConflictError('item exists');
    this.names.set(account.name, account.id);
    this.accounts.set(account.id, copy(account));
  }

  async get(accountId: string): Promise<Account | undefined> {
    const account = this.accounts.get(accountId);
    return account ? copy(account) : undefined;
  }

  async findByName(name: string): Promise<Account | undefined> {
    const id = this.names.get(name);
    return id === undefined ? undefined : this.get(id);
  }

  async setBootstrapKey(accountId: string, lookupId: string): Promise<void> {
    const account = this.accounts.get(accountId);
    if (account) account.bootstrapKeyId = lookupId;
  }

  async setImportSources(accountId: string, sources: readonly string[]): Promise<void> {
    const account = this.accounts.get(accountId);
    if (account) account.importSources = [...sources];
  }

  async reserveTokens(accountId: string, tokens: number): Promise<Account | undefined> {
    const account = this.accounts.get(accountId);
    if (!account || account.tokensRemaining < tokens) return undefined;
    account.tokensRemaining -= tokens;
    return copy(account);
  }

  async chargeTokens(accountId: string, tokens: number): Promise<void> {
    const account = this.accounts.get(accountId);
    if (account) account.tokensRemaining -= tokens;
  }

  async refundTokens(accountId: string, tokens: number, jobId: string): Promise<void> {
    const account = this.accounts.get(accountId);
    if (!account) return;
    const jobs = this.refunded.get(accountId) ?? new Set<string>();
    if (jobs.has(jobId)) return; // this job was refunded already
    jobs.add(jobId);
    this.refunded.set(accountId, jobs);
    account.tokensRemaining += tokens;
  }

  async settleRefund(accountId: string, jobId: string): Promise<void> {
    this.refunded.get(accountId)?.delete(jobId);
  }
}

export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys = new Map<string, ApiKeyRecord>();

  async put(record: ApiKeyRecord): Promise<void> {
    if (this.keys.has(record.lookupId)) throw new ConflictError('api key exists');
    this.keys.set(record.lookupId, copy(record));
  }

  async find(lookupId: string): Promise<ApiKeyRecord | undefined> {
    const record = this.keys.get(lookupId);
    return record ? copy(record) : undefined;
  }

  async listOf(accountId: string): Promise<ApiKeyRecord[]> {
    const order = (record: ApiKeyRecord) => byCreation({ createdAt: record.createdAt, id: record.lookupId });
    return [...this.keys.values()]
      .filter((record) => record.accountId === accountId)
      .sort((a, b) => compare(order(a), order(b)))
      .map(copy);
  }

  async revoke(accountId: string, lookupId: string, at: string): Promise<ApiKeyRecord | undefined> {
    const record = this.keys.get(lookupId);
    if (!record || record.accountId !== accountId) return undefined;
    record.revokedAt ??= at;
    return copy(record);
  }
}

/** Requests per account and window (a process's counts: nothing expires them but the process ending). */
export class MemoryRequestCounter implements RequestCounter {
  private readonly windows = new AccountRecords<number>();

  async count(accountId: string, window: number): Promise<number> {
    const requests = (this.windows.get(accountId, String(window)) ?? 0) + 1;
    this.windows.put(accountId, String(window), requests);
    return requests;
  }
}
