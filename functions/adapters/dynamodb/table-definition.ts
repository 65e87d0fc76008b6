/**
 * The physical shape of the single table: its key attributes and global secondary indexes.
 * Read by the CDK data stack and by the local runtime when it creates the table, so both agree.
 */
import { INDEX_NAMES, type IndexName } from './keys';

export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';

export interface IndexDefinition {
  name: IndexName;
  partitionKey: string;
  sortKey: string;
}

export const GLOBAL_INDEXES: readonly IndexDefinition[] = INDEX_NAMES.map((name) => ({
  name,
  partitionKey: `${name}pk`,
  sortKey: `${name}sk`,
}));

/** Attribute that expires items (webhook deliveries, idempotency records) where the store supports TTL. */
export const TTL_ATTRIBUTE = 'expiresAt';
