/** The port an operator's account erasure (kmem accounts delete) needs beyond the stores of core/ports.ts. */

/** What erasing an account needs of the table beyond the stores (an operator's command, never a request's path). */
export interface AccountErasureStore {
  /** Marks the account as being deleted (`Account.deletingAt`): the worker drops its work from then on. */
  markDeleting(accountId: string, at: string): Promise<void>;
  /** Deletes every item under the account's keys except the account's own; answers how many (reads the whole table). */
  deleteTenantItems(accountId: string): Promise<number>;
  /** Deletes the account's item, its name's reservation and these key records: nothing in the table names the account then. */
  deleteAccount(accountId: string, name: string | undefined, keyLookupIds: readonly string[]): Promise<void>;
}
