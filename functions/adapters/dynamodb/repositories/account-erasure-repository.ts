/**
 * Erasing an account from the single table. Every tenant key starts with `A#<account>#` (keys.ts), so a
 * Scan filtered on that start finds every item the account owns, whatever its kind, without a list of
 * kinds to keep in step; the global lookups that name the account (its name's reservation, its keys'
 * records) are deleted by their keys.
 */
import { ConflictError } from '../../../core/errors';
import type { AccountErasureStore } from '../../../core/accounts/ports';
import { keys, type TableKey } from '../keys';
import type { Table } from '../table';

export class AccountErasureRepository implements AccountErasureStore {
  constructor(private readonly table: Table) {}

  async markDeleting(accountId: string, at: string): Promise<void> {
    try {
      await this.table.update(keys.account(accountId), { deletingAt: at }, { expression: 'attribute_exists(pk)', names: {}, values: {} });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error; // no account item (a repeated erasure): nothing to mark
    }
  }

  async deleteTenantItems(accountId: string): Promise<number> {
    const own = keys.account(accountId);
    const filter = { expression: 'begins_with(#pk, :tenant)', names: { '#pk': 'pk' }, values: { ':tenant': keys.tenantPrefix(accountId) } };
    let deleted = 0;
    for await (const items of this.table.scanPages(filter, ['pk', 'sk'])) {
      const found = items
        .map((item): TableKey => ({ pk: String(item.pk), sk: String(item.sk) }))
        .filter((key) => key.pk !== own.pk || key.sk !== own.sk);
      await this.table.deleteMany(found);
      deleted += found.length;
    }
    return deleted;
  }

  async deleteAccount(accountId: string, name: string | undefined, keyLookupIds: readonly string[]): Promise<void> {
    const lookups = keyLookupIds.map((lookupId) => keys.apiKey(lookupId));
    await this.table.deleteMany([keys.account(accountId), ...(name === undefined ? [] : [keys.accountName(name)]), ...lookups]);
  }
}
