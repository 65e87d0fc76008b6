import { z } from 'zod';
import { ConflictError } from '../../../core/errors';
import type { Account, ApiKeyRecord } from '../../../core/model';
import type { AccountStore, ApiKeyStore } from '../../../core/ports';
import { itemOf, itemSchema, readAll, storedTimestamp } from '../item-schema';
import { byCreation, keys } from '../keys';
import type { Table } from '../table';

/** An account as stored (beside it: `refundedJobs`, the string set of jobs refunded and not yet stamped). */
const accountItem = itemSchema<Account>(
  'account',
  z.object({
    id: z.string(),
    name: z.string(),
    totalTokenLimit: z.number(),
    tokensRemaining: z.number(),
    webhookSecret: z.string(),
    createdAt: storedTimestamp,
    bootstrapKeyId: z.string().optional(),
    importSources: z.array(z.string()).optional(),
    deletingAt: z.string().optional(),
  }),
);

const apiKeyItem = itemSchema<ApiKeyRecord>(
  'apiKey',
  z.object({
    lookupId: z.string(),
    verifier: z.string(),
    salt: z.string(),
    accountId: z.string(),
    createdAt: storedTimestamp,
    revokedAt: z.string().optional(),
  }),
);

/** The reservation of an account name: which account holds it. */
const accountNameItem = itemSchema<{ accountId: string }>('accountName', z.object({ accountId: z.string() }));

export class AccountRepository implements AccountStore {
  constructor(private readonly table: Table) {}

  /** Reserves the name first, so two creates of one name cannot both succeed. */
  async create(account: Account): Promise<void> {
    await this.table.create(itemOf(accountNameItem, keys.accountName(account.name), { accountId: account.id }));
    await this.table.create({ ...itemOf(accountItem, keys.account(account.id), account), accountId: account.id });
  }

  async setBootstrapKey(accountId: string, lookupId: string): Promise<void> {
    await this.table.update(keys.account(accountId), { bootstrapKeyId: lookupId });
  }

  /** Stamps a finished refund on the job's side; the set entry stays only for jobs never stamped. */
  async settleRefund(accountId: string, jobId: string): Promise<void> {
    await this.table.apply(keys.account(accountId), {
      expression: 'DELETE refundedJobs :job',
      names: {},
      values: { ':job': new Set([jobId]) },
    });
  }

  async get(accountId: string): Promise<Account | undefined> {
    const item = await this.table.get(keys.account(accountId));
    return item ? accountItem.read(item) : undefined;
  }

  async findByName(name: string): Promise<Account | undefined> {
    const reservation = await this.table.get(keys.accountName(name));
    return reservation ? this.get(accountNameItem.read(reservation).accountId) : undefined;
  }

  async reserveTokens(accountId: string, tokens: number): Promise<Account | undefined> {
    try {
      const item = await this.table.apply(
        keys.account(accountId),
        { expression: 'SET tokensRemaining = tokensRemaining - :n', names: {}, values: { ':n': tokens } },
        { expression: 'tokensRemaining >= :n', names: {}, values: { ':n': tokens } },
      );
      return item ? accountItem.read(item) : undefined;
    } catch (error) {
      if (error instanceof ConflictError) return undefined;
      throw error;
    }
  }

  async setImportSources(accountId: string, sources: readonly string[]): Promise<void> {
    await this.table.apply(keys.account(accountId), {
      expression: 'SET importSources = :sources',
      names: {},
      values: { ':sources': [...sources] },
    });
  }

  async chargeTokens(accountId: string, tokens: number): Promise<void> {
    await this.table.apply(keys.account(accountId), {
      expression: 'SET tokensRemaining = tokensRemaining - :n',
      names: {},
      values: { ':n': tokens },
    });
  }

  /**
   * Adds the refund and records the job in `refundedJobs` in one conditional write, so a redelivered
   * reconciliation cannot refund twice.
   */
  async refundTokens(accountId: string, tokens: number, jobId: string): Promise<void> {
    try {
      await this.table.apply(
        keys.account(accountId),
        {
          expression: 'SET tokensRemaining = tokensRemaining + :n ADD refundedJobs :job',
          names: {},
          values: { ':n': tokens, ':job': new Set([jobId]), ':id': jobId },
        },
        { expression: 'NOT contains(refundedJobs, :id)', names: {}, values: {} },
      );
    } catch (error) {
      if (error instanceof ConflictError) return; // this job was refunded already
      throw error;
    }
  }
}

export class ApiKeyRepository implements ApiKeyStore {
  constructor(private readonly table: Table) {}

  async put(record: ApiKeyRecord): Promise<void> {
    try {
      const listing = { gsi1pk: keys.apiKeysOf(record.accountId), gsi1sk: byCreation(record.createdAt, record.lookupId) };
      await this.table.create(itemOf(apiKeyItem, { ...keys.apiKey(record.lookupId), ...listing }, record));
    } catch (error) {
      if (error instanceof ConflictError) throw new ConflictError('api key exists', { cause: error });
      throw error;
    }
  }

  async find(lookupId: string): Promise<ApiKeyRecord | undefined> {
    const item = await this.table.get(keys.apiKey(lookupId));
    return item ? apiKeyItem.read(item) : undefined;
  }

  async listOf(accountId: string): Promise<ApiKeyRecord[]> {
    return readAll(apiKeyItem, await this.table.queryAll(keys.apiKeysOf(accountId), undefined, 'gsi1'));
  }

  async revoke(accountId: string, lookupId: string, at: string): Promise<ApiKeyRecord | undefined> {
    try {
      const item = await this.table.apply(
        keys.apiKey(lookupId),
        { expression: 'SET revokedAt = if_not_exists(revokedAt, :at)', names: {}, values: { ':at': at } },
        { expression: 'accountId = :account', names: {}, values: { ':account': accountId } },
      );
      return item ? apiKeyItem.read(item) : undefined;
    } catch (error) {
      if (error instanceof ConflictError) return undefined; // another account's key
      throw error;
    }
  }
}
