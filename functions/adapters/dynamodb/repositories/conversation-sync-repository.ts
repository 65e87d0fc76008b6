/**
 * A memory's pending conversation changes and its build lease, in one item beside the memory:
 * `generation` (every change adds one), `holder` and `leaseUntil` (the build running), and one counter
 * attribute `c#<sessionId>` per session changed since its last build.
 */
import { z } from 'zod';
import type { ConversationSyncStore, PendingSync } from '../../../core/ports';
import { itemSchema } from '../item-schema';
import { keys, type TableKey } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

const SESSION_PREFIX = 'c#';
/** Sessions marked or forgotten per write (each is named in the expression: DynamoDB expressions stay under 4 KB). */
const SETTLE_GROUP = 40;
const SETTLE_TRIES = 5;

/** Where the pending changes of a target live: a memory's (the default) or an account's message index. */
export type SyncKey = (accountId: string, target: string) => TableKey;

export class ConversationSyncRepository implements ConversationSyncStore {
  constructor(
    private readonly table: Table,
    private readonly keyOf: SyncKey = keys.conversationSync,
  ) {}

  async markChanged(accountId: string, memoryId: string, sessionIds: readonly string[]): Promise<void> {
    for (let i = 0; i < sessionIds.length; i += SETTLE_GROUP) await this.mark(accountId, memoryId, sessionIds.slice(i, i + SETTLE_GROUP));
  }

  private async mark(accountId: string, memoryId: string, sessionIds: readonly string[]): Promise<void> {
    const names: Record<string, string> = {};
    const adds = sessionIds.map((id, i) => {
      names[`#c${i}`] = SESSION_PREFIX + id;
      return `#c${i} :one`;
    });
    await this.table.upsert(this.keyOf(accountId, memoryId), {
      expression: `ADD generation :one, ${adds.join(', ')}`,
      names,
      values: { ':one': 1 },
    });
  }

  async acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<PendingSync | undefined> {
    const item = await this.table.upsert(
      this.keyOf(accountId, memoryId),
      { expression: 'SET holder = :holder, leaseUntil = :until', names: {}, values: { ':holder': holder, ':until': untilMs } },
      {
        expression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now OR holder = :holder',
        names: {},
        values: { ':now': nowMs, ':holder': holder },
      },
    );
    return item === 'refused' ? undefined : pendingOf(item);
  }

  async settle(accountId: string, memoryId: string, holder: string, built: PendingSync, untilMs: number): Promise<PendingSync | undefined> {
    if (!(await this.forget(accountId, memoryId, holder, built.sessions))) return undefined;
    const key = this.keyOf(accountId, memoryId);
    // an item no change ever marked has no generation (read as 0): it is unchanged too, or the lease would
    // be kept round after round with nothing to build
    const unmarked = built.generation === 0 ? 'attribute_not_exists(generation) OR ' : '';
    const released = await this.table.upsert(
      key,
      { expression: 'REMOVE holder SET leaseUntil = :zero', names: {}, values: { ':zero': 0 } },
      {
        expression: `holder = :holder AND (${unmarked}generation = :built)`,
        names: {},
        values: { ':holder': holder, ':built': built.generation },
      },
    );
    if (released !== 'refused') return undefined;
    const kept = await this.table.upsert(
      key,
      { expression: 'SET leaseUntil = :until', names: {}, values: { ':until': untilMs } },
      { expression: 'holder = :holder', names: {}, values: { ':holder': holder } },
    );
    return kept === 'refused' ? undefined : pendingOf(kept);
  }

  async release(accountId: string, memoryId: string, holder: string): Promise<void> {
    await this.table.upsert(
      this.keyOf(accountId, memoryId),
      { expression: 'REMOVE holder SET leaseUntil = :zero', names: {}, values: { ':zero': 0 } },
      { expression: 'holder = :holder', names: {}, values: { ':holder': holder } },
    );
  }

  async delete(accountId: string, memoryId: string): Promise<void> {
    await this.table.delete(this.keyOf(accountId, memoryId));
  }

  /**
   * Removes the built sessions' counters where they still hold the count that was built (a session changed
   * again stays pending). False when the lease is no longer this holder's.
   */
  private async forget(accountId: string, memoryId: string, holder: string, built: ReadonlyMap<string, number>): Promise<boolean> {
    const key = this.keyOf(accountId, memoryId);
    let left = [...built];
    for (let tries = 0; left.length > 0; tries++) {
      const group = left.slice(0, SETTLE_GROUP);
      const done = await this.table.upsert(key, removal(group), unchanged(group, holder));
      if (done !== 'refused') {
        left = left.slice(group.length);
        continue;
      }
      const now = await this.table.get(key);
      if (!now || now.holder !== holder) return false;
      if (tries >= SETTLE_TRIES) return true; // counters moving under us: they stay pending, the next round builds them
      const current = now as Item;
      left = left.filter(([id, count]) => current[SESSION_PREFIX + id] === count);
    }
    return true;
  }
}

function removal(group: ReadonlyArray<readonly [string, number]>): QueryFilter {
  const names: Record<string, string> = {};
  group.forEach(([id], i) => (names[`#c${i}`] = SESSION_PREFIX + id));
  return { expression: `REMOVE ${group.map((_, i) => `#c${i}`).join(', ')}`, names, values: {} };
}

function unchanged(group: ReadonlyArray<readonly [string, number]>, holder: string): QueryFilter {
  const values: Record<string, unknown> = { ':holder': holder };
  const checks = group.map(([, count], i) => {
    values[`:v${i}`] = count;
    return `#c${i} = :v${i}`;
  });
  return { expression: ['holder = :holder', ...checks].join(' AND '), names: {}, values };
}

/** The item as its writes leave it (never written whole: every change is an update expression). */
const pendingItem = itemSchema<PendingSync>(
  'conversationSync',
  z
    .looseObject({ generation: z.number().default(0) })
    .superRefine((item, context) => {
      for (const [name, value] of Object.entries(item)) {
        if (name.startsWith(SESSION_PREFIX) && typeof value !== 'number')
          context.addIssue({ code: 'custom', path: [name], message: 'is not a count' });
      }
    })
    .transform(({ generation, ...attributes }) => ({
      generation,
      sessions: new Map(
        Object.entries(attributes).flatMap(([name, value]) =>
          name.startsWith(SESSION_PREFIX) && typeof value === 'number' ? [[name.slice(SESSION_PREFIX.length), value] as const] : [],
        ),
      ),
    })),
);

const pendingOf = (item: Item): PendingSync => pendingItem.read(item);
