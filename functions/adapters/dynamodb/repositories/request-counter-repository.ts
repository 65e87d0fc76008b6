import type { RequestCounter } from '../../../core/ports';
import { logger } from '../../../observability';
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

/** One account's window as a container counts it. */
interface WindowCount {
  window: number;
  /** The table's count as last answered (raised by what this container has since seen written). */
  known: number;
  /** Requests being added to the table now (a write in flight). */
  writing: number;
  /** Requests not yet sent to the table. */
  pending: number;
  writtenAt: number;
}

/**
 * A warm container's counter: requests are counted here and added to the table every FLUSH_EVERY requests
 * of an account, or when its last write is FLUSH_AFTER_MS old, so the table sees one write per batch
 * instead of one per request. The write runs beside the request that starts it, not before it (the
 * request does not wait for the table's round trip); a failed write is logged and its requests go into
 * the next one. The count answered is the table's last answer plus what is being written and not written
 * yet: exact in one container (the local runtime); across Lambda containers an account may pass its limit
 * by what the others have not written yet (at most a batch or a second of requests each, plus a write in
 * flight).
 */
export class BatchedRequestCounter implements RequestCounter {
  private readonly windows = new Map<string, WindowCount>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly store: RequestCounterRepository,
    private readonly flushEvery = 20,
    private readonly flushAfterMs = 1_000,
  ) {}

  count(accountId: string, window: number, expiresAtSeconds: number): Promise<number> {
    let state = this.windows.get(accountId);
    if (state?.window !== window) {
      if (this.windows.size >= 10_000) this.windows.clear();
      state = { window, known: 0, writing: 0, pending: 0, writtenAt: 0 };
      this.windows.set(accountId, state);
    }
    state.pending += 1;
    const now = Date.now();
    if (state.pending >= this.flushEvery || now - state.writtenAt >= this.flushAfterMs) this.write(accountId, state, now, expiresAtSeconds);
    return Promise.resolve(state.known + state.writing + state.pending);
  }

  /** Settles once the writes started so far have (tests, and a runtime that stops). */
  async written(): Promise<void> {
    await Promise.all(this.writes);
  }

  /** Adds the window's pending requests to the table, in the background. */
  private write(accountId: string, state: WindowCount, now: number, expiresAtSeconds: number): void {
    const requests = state.pending;
    state.pending = 0;
    state.writing += requests;
    state.writtenAt = now;
    const write = this.store.add(accountId, state.window, requests, expiresAtSeconds).then(
      (total) => {
        state.known = Math.max(state.known + requests, total);
        state.writing -= requests;
      },
      (error: unknown) => {
        state.writing -= requests;
        state.pending += requests;
        logger.warn('request counter: adding to the table failed; the next write carries these requests', {
          accountId,
          requests,
          error: error as Error,
        });
      },
    );
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
