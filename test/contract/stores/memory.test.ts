/** The store contracts on the in-memory stores (fast tier: no store server). */
import { describe } from 'vitest';
import { memoryStores } from '../../../functions/adapters/memory/container';
import { storeContracts } from './contracts';

describe('in-memory stores', () => {
  storeContracts(
    () => memoryStores(),
    async () => undefined,
  );
});
