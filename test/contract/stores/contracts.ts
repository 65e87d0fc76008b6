/**
 * Every store port's contract, run against one implementation: the DynamoDB/S3 adapters over dynalite and
 * s3rver (local-stores.test.ts, end-to-end tier) and the in-memory ones (memory.test.ts, fast tier). The
 * same assertions hold both, so a use-case test on memory tests what the real stores would do.
 */
import { accountStoreContract, apiKeyStoreContract, requestCounterContract } from './accounts';
import { fileStoreContract, importStoreContract, uploadStoreContract } from './files';
import { jobStoreContract, linkStoreContract, memoryStoreContract, sessionLinkStoreContract } from './memories';
import { objectStoreContract } from './objects';
import { messageStoreContract, sessionStoreContract, userStoreContract } from './people';
import type { MakeStores } from './records';
import { conversationSyncStoreContract, graphItemStoreContract, messageIndexStoreContract } from './sync';
import { webhookStoreContract } from './webhooks';

export function storeContracts(make: MakeStores, createBucket: (name: string) => Promise<void>): void {
  accountStoreContract(make);
  apiKeyStoreContract(make);
  requestCounterContract(make);
  userStoreContract(make);
  sessionStoreContract(make);
  messageStoreContract(make);
  uploadStoreContract(make);
  fileStoreContract(make);
  importStoreContract(make);
  memoryStoreContract(make);
  linkStoreContract(make);
  sessionLinkStoreContract(make);
  jobStoreContract(make);
  graphItemStoreContract(make);
  conversationSyncStoreContract(make);
  // the message index's pending changes: the same store keyed by account
  conversationSyncStoreContract(() => ({ ...make(), conversationSync: make().messageIndexSync }));
  messageIndexStoreContract(make);
  webhookStoreContract(make);
  objectStoreContract(make, createBucket);
}
