import type { ApiKeyRecord } from '../../core/model';
import type { ApiKeyStore } from '../../core/ports';

/**
 * Keeps API key lookups of a warm container for a short time, so a burst of requests costs one read.
 * Unknown keys are cached too (briefly), so a flood of bad keys does not become a flood of reads.
 */
export class CachedApiKeyStore implements ApiKeyStore {
  private readonly entries = new Map<string, { record: ApiKeyRecord | undefined; until: number }>();

  constructor(
    private readonly inner: ApiKeyStore,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  put(record: ApiKeyRecord): Promise<void> {
    this.entries.delete(record.lookupId);
    return this.inner.put(record);
  }

  listOf(accountId: string): Promise<ApiKeyRecord[]> {
    return this.inner.listOf(accountId);
  }

  /** Forgets the key here at once; other warm containers stop accepting it within their cache time. */
  revoke(accountId: string, lookupId: string, at: string): Promise<ApiKeyRecord | undefined> {
    this.entries.delete(lookupId);
    return this.inner.revoke(accountId, lookupId, at);
  }

  async find(lookupId: string): Promise<ApiKeyRecord | undefined> {
    const now = Date.now();
    const hit = this.entries.get(lookupId);
    if (hit && hit.until > now) return hit.record;
    const record = await this.inner.find(lookupId);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(lookupId, { record, until: now + (record ? this.ttlMs : Math.min(this.ttlMs, 2_000)) });
    return record;
  }
}
