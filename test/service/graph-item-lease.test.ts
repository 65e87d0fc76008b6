/**
 * A killed graph-item writer does not hold the items for long: its lease lapses within half a minute,
 * and a build waiting for it looks at growing gaps, not ten times a second. Real stores; the clock runs
 * twenty times faster than real time so the test waits about a second and a half.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { GRAPH_ITEMS_LEASE_MS, writeGraphItems } from '../../functions/core/ingest/graph-items-sync';
import type { GraphItemStore } from '../../functions/core/ports';
import { testDeps } from '../support/stores';

const deps = testDeps();
afterAll(() => deps.documentClient.destroy());

const SPEED = 20;
const origin = Date.now();
const fastClock = { now: () => new Date(origin + (Date.now() - origin) * SPEED) };

describe('graph item lease', () => {
  it('lets a build take over from a killed writer within the lease, with few looks', async () => {
    expect(GRAPH_ITEMS_LEASE_MS).toBeLessThanOrEqual(30_000);
    const accountId = `lease-${process.pid}-${Date.now()}`;
    const memoryId = 'm1';
    const now = fastClock.now().getTime();
    expect(await deps.graphItems.acquire(accountId, memoryId, 'killed-writer', now, now + GRAPH_ITEMS_LEASE_MS)).toBeDefined();

    let looks = 0;
    const counting: GraphItemStore = Object.assign(Object.create(deps.graphItems) as GraphItemStore, {
      acquire: (...args: Parameters<GraphItemStore['acquire']>) => {
        looks += 1;
        return deps.graphItems.acquire(...args);
      },
    });
    const started = Date.now();
    await writeGraphItems({ objects: deps.objects, graphItems: counting, clock: fastClock, ids: deps.ids }, accountId, memoryId, {
      items: () => ({ nodes: [], edges: [] }),
      version: 1,
      prefix: 'lease-test/',
    });
    expect(Date.now() - started).toBeLessThan(GRAPH_ITEMS_LEASE_MS / SPEED + 2_500);
    expect(looks).toBeLessThanOrEqual(8);
  }, 15_000);
});
