/** The contracts of AccountStore, ApiKeyStore and RequestCounter. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../functions/core/errors';
import type { Account, ApiKeyRecord } from '../../../functions/core/model';
import { at, type MakeStores, newId } from './records';

const account = (tokens = 100): Account => ({
  id: newId(),
  name: `name-${newId()}`,
  totalTokenLimit: tokens,
  tokensRemaining: tokens,
  webhookSecret: 'whsec_x',
  createdAt: at(0),
});

const apiKey = (accountId: string, seconds: number): ApiKeyRecord => ({
  lookupId: newId(),
  verifier: 'v',
  salt: 's',
  accountId,
  createdAt: at(seconds),
});

export function accountStoreContract(make: MakeStores): void {
  describe('AccountStore', () => {
    it('creates an account, finds it by id and by name, and refuses a second account of the same name', async () => {
      const { accounts } = make();
      const first = account();
      await accounts.create(first);
      expect(await accounts.get(first.id)).toEqual(first);
      expect(await accounts.findByName(first.name)).toEqual(first);
      await expect(accounts.create({ ...account(), name: first.name })).rejects.toBeInstanceOf(ConflictError);
      expect(await accounts.get(newId())).toBeUndefined();
      expect(await accounts.findByName(`name-${newId()}`)).toBeUndefined();
    });

    it('reserves tokens only while the budget holds them, and charges unconditionally', async () => {
      const { accounts } = make();
      const a = account(100);
      await accounts.create(a);
      expect((await accounts.reserveTokens(a.id, 60))?.tokensRemaining).toBe(40);
      expect(await accounts.reserveTokens(a.id, 41)).toBeUndefined();
      expect((await accounts.get(a.id))?.tokensRemaining).toBe(40);
      expect((await accounts.reserveTokens(a.id, 40))?.tokensRemaining).toBe(0);
      await accounts.chargeTokens(a.id, 5);
      expect((await accounts.get(a.id))?.tokensRemaining).toBe(-5);
      expect(await accounts.reserveTokens(newId(), 1)).toBeUndefined();
    });

    it('refunds a job once whatever the redeliveries, and again only after the refund was settled', async () => {
      const { accounts } = make();
      const a = account(100);
      await accounts.create(a);
      await accounts.reserveTokens(a.id, 50);
      const jobId = newId();
      await accounts.refundTokens(a.id, 20, jobId);
      await accounts.refundTokens(a.id, 20, jobId);
      expect((await accounts.get(a.id))?.tokensRemaining).toBe(70);
      await accounts.refundTokens(a.id, 10, newId());
      expect((await accounts.get(a.id))?.tokensRemaining).toBe(80);
      await accounts.settleRefund(a.id, jobId);
      await accounts.refundTokens(a.id, 5, jobId);
      expect((await accounts.get(a.id))?.tokensRemaining).toBe(85);
    });

    it('records the bootstrap key and the import sources on the account, replacing what was there', async () => {
      const { accounts } = make();
      const a = account(100);
      await accounts.create(a);
      await accounts.setBootstrapKey(a.id, 'lookup-1');
      await accounts.setImportSources(a.id, ['corp-docs/team-a/', 'other']);
      await accounts.setBootstrapKey(a.id, 'lookup-2');
      await accounts.setImportSources(a.id, ['corp-docs/team-b/']);
      expect(await accounts.get(a.id)).toEqual({ ...a, bootstrapKeyId: 'lookup-2', importSources: ['corp-docs/team-b/'] });
      await accounts.setImportSources(a.id, []);
      expect((await accounts.get(a.id))?.importSources).toEqual([]);
      expect((await accounts.findByName(a.name))?.bootstrapKeyId).toBe('lookup-2');
    });
  });
}

export function apiKeyStoreContract(make: MakeStores): void {
  describe('ApiKeyStore', () => {
    it('stores keys, refuses a second key of the same lookup id, and lists an account’s keys oldest first', async () => {
      const { apiKeys } = make();
      const accountId = newId();
      const later = apiKey(accountId, 20);
      const earlier = apiKey(accountId, 10);
      await apiKeys.put(later);
      await apiKeys.put(earlier);
      await apiKeys.put(apiKey(newId(), 5));
      await expect(apiKeys.put({ ...apiKey(accountId, 30), lookupId: later.lookupId })).rejects.toBeInstanceOf(ConflictError);
      expect(await apiKeys.find(later.lookupId)).toEqual(later);
      expect(await apiKeys.find(newId())).toBeUndefined();
      expect((await apiKeys.listOf(accountId)).map((key) => key.lookupId)).toEqual([earlier.lookupId, later.lookupId]);
    });

    it('revokes only the account’s own key, keeping the first revocation time', async () => {
      const { apiKeys } = make();
      const accountId = newId();
      const key = apiKey(accountId, 0);
      await apiKeys.put(key);
      expect(await apiKeys.revoke(newId(), key.lookupId, at(5))).toBeUndefined();
      expect((await apiKeys.find(key.lookupId))?.revokedAt).toBeUndefined();
      expect((await apiKeys.revoke(accountId, key.lookupId, at(5)))?.revokedAt).toBe(at(5));
      expect((await apiKeys.revoke(accountId, key.lookupId, at(9)))?.revokedAt).toBe(at(5));
      expect((await apiKeys.find(key.lookupId))?.revokedAt).toBe(at(5));
      expect(await apiKeys.revoke(accountId, newId(), at(5))).toBeUndefined();
    });
  });
}

export function requestCounterContract(make: MakeStores): void {
  describe('RequestCounter', () => {
    it('counts each account’s requests per window, apart from other windows and accounts', async () => {
      const { requestCounter } = make();
      const [a, b] = [newId(), newId()];
      const expires = Math.floor(Date.now() / 1000) + 120;
      const counts = [];
      for (let i = 0; i < 25; i++) counts.push(await requestCounter.count(a, 1, expires));
      expect(counts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await requestCounter.count(a, 2, expires)).toBe(1);
      expect(await requestCounter.count(b, 1, expires)).toBe(1);
    });
  });
}
