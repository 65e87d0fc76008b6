import type { RequestCounter } from '../../../core/ports';
import { TTL_ATTRIBUTE } from '../table-definition';
import { keys } from '../keys';
import type { Table } from '../table';

/** Per-account request counts by minute, one expiring item each (DynamoDB TTL removes them). */
export class RequestCounterRepository {
  constructor(private readonly table: Table) {}

  /** Adds `requests` to the account's window; answers the window's count after. */
  add(accountId: string, window: number, requests: number, expiresAtSeconds: number): Promise<number> {
    return this.table.increment(keys.requestWindow(accountId, window), 'requests', requests, {
      [TTL_ATTRIBUTE]: expiresAtSeconds,
      kind: 'requestWindow',
    });
  }
}

/**
 * A warm container's counter: requests are counted here and added to the table every FLUSH_EVERY requests
 * of an account, or when its last write is FLUSH_AFTER_MS old, so the table sees one write per batch
 * instead of one per request. The count answered is the table's last answer plus what is not written yet:
 * exact in one container (the local runtime); across Lambda containers an account may pass its limit by
 * what the others have not written yet (at most a batch or a second of requests each).
 */
export class BatchedRequestCounter implements RequestCounter {
  private readonly windows = new Map<string, { window: number; known: number; pending: number; writtenAt: number }>();

  constructor(
    private readonly store: RequestCounterRepository,
    private readonly flushEvery = 20,
    private readonly flushAfterMs = 1_000,
  ) {}

  async count(accountId: string, window: number, expiresAtSeconds: number): Promise<number> {
    let state = this.windows.get(accountId);
    if (state?.window !== window) {
      if (this.windows.size >= 10_000) this.windows.clear();
      state = { window, known: 0, pending: 0, writtenAt: 0 };
      this.windows.set(accountId, state);
    }
    state.pending += 1;
    const now = Date.now();
    if (state.pending >= this.flushEvery || now - state.writtenAt >= this.flushAfterMs) {
      const requests = state.pending;
      state.pending = 0;
      state.writtenAt = now;
      state.known = Math.max(state.known + requests, await this.store.add(accountId, window, requests, expiresAtSeconds));
    }
    return state.known + state.pending;
  }
}
