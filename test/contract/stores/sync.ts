/** The contracts of GraphItemStore, ConversationSyncStore and MessageIndexStore. */
import { describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode } from '../../../functions/core/graph-items';
import { type MakeStores, newId, walkPages } from './records';

const node = (id: string): GraphNode => ({ id, name: id, type: 'thing', aliases: [], mentions: 1, support: 1 });
const edge = (source: string, target: string, id = `${source}-${target}`): GraphEdge => ({
  id,
  source,
  target,
  predicate: 'knows',
  kind: 'related',
  weight: 1,
  support: 1,
});

export function graphItemStoreContract(make: MakeStores): void {
  describe('GraphItemStore', () => {
    it('lets one writer hold the items at a time, until its lease ends, and keeps the state it releases', async () => {
      const { graphItems } = make();
      const [accountId, memoryId] = [newId(), newId()];
      expect(await graphItems.acquire(accountId, memoryId, 'w1', 1_000, 2_000)).toEqual({ version: 0, prefix: null });
      expect(await graphItems.acquire(accountId, memoryId, 'w2', 1_500, 2_500)).toBeUndefined();
      expect(await graphItems.renew(accountId, memoryId, 'w2', 3_000)).toBe(false);
      expect(await graphItems.renew(accountId, memoryId, 'w1', 3_000)).toBe(true);
      expect(await graphItems.acquire(accountId, memoryId, 'w2', 2_500, 4_000)).toBeUndefined();
      await graphItems.release(accountId, memoryId, 'w2', { version: 9, prefix: 'wrong/' });
      await graphItems.release(accountId, memoryId, 'w1', { version: 3, prefix: 'gold/3/' });
      expect(await graphItems.acquire(accountId, memoryId, 'w2', 2_500, 4_000)).toEqual({ version: 3, prefix: 'gold/3/' });
      // the holder's state reads as unknown while held: a writer that dies leaves the next comparing the items
      expect(await graphItems.acquire(accountId, memoryId, 'w3', 5_000, 6_000)).toEqual({ version: 3, prefix: null });
      expect(await graphItems.renew(newId(), memoryId, 'w3', 7_000)).toBe(false);
    });

    it('applies changes, reads them all, pages nodes in id order and reads edges by source range', async () => {
      const { graphItems } = make();
      const [accountId, memoryId] = [newId(), newId()];
      await graphItems.apply(accountId, memoryId, {
        putNodes: ['c', 'a', 'b', 'd'].map(node),
        putEdges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('a', 'c')],
        removeNodes: [],
        removeEdges: [],
      });
      await graphItems.apply(accountId, memoryId, {
        putNodes: [{ ...node('a'), mentions: 5 }],
        putEdges: [],
        removeNodes: ['d'],
        removeEdges: [{ id: 'c-d', source: 'c' }],
      });
      const all = await graphItems.readAll(accountId, memoryId);
      expect(all.nodes.map((n) => [n.id, n.mentions])).toEqual([
        ['a', 5],
        ['b', 1],
        ['c', 1],
      ]);
      expect(all.edges.map((e) => e.id)).toEqual(['a-b', 'a-c', 'b-c']);
      const { forward } = await walkPages((page) => graphItems.pageNodes(accountId, memoryId, page), 2);
      expect(forward.map((page) => page.map((n) => n.id))).toEqual([['a', 'b'], ['c']]);
      expect((await graphItems.getNodes(accountId, memoryId, ['c', 'x', 'a'])).map((n) => n.id).sort()).toEqual(['a', 'c']);
      expect((await graphItems.edgesFrom(accountId, memoryId, 'b', 'c')).map((e) => e.id)).toEqual(['b-c']);
      expect((await graphItems.edgesFrom(accountId, memoryId, 'a', 'a')).map((e) => e.id)).toEqual(['a-b', 'a-c']);
      expect((await graphItems.readAll(newId(), memoryId)).nodes).toEqual([]);
    });

    it('deletes every item of a memory’s graph, and its state', async () => {
      const { graphItems } = make();
      const [accountId, memoryId, other] = [newId(), newId(), newId()];
      for (const id of [memoryId, other]) {
        await graphItems.apply(accountId, id, { putNodes: [node('a')], putEdges: [edge('a', 'a')], removeNodes: [], removeEdges: [] });
      }
      await graphItems.acquire(accountId, memoryId, 'w1', 1_000, 9_000);
      await graphItems.deleteAll(accountId, memoryId);
      expect(await graphItems.readAll(accountId, memoryId)).toEqual({ nodes: [], edges: [] });
      expect((await graphItems.readAll(accountId, other)).nodes).toHaveLength(1);
      expect(await graphItems.acquire(accountId, memoryId, 'w2', 2_000, 3_000)).toEqual({ version: 0, prefix: null });
    });
  });
}

export function conversationSyncStoreContract(make: MakeStores): void {
  describe('ConversationSyncStore', () => {
    it('holds changes pending until a build of them settles; a change meanwhile keeps the lease and stays pending', async () => {
      const { conversationSync } = make();
      const [accountId, memoryId] = [newId(), newId()];
      await conversationSync.markChanged(accountId, memoryId, ['s1', 's2']);
      const built = await conversationSync.acquire(accountId, memoryId, 'b1', 1_000, 2_000);
      expect(built).toEqual({
        generation: 1,
        sessions: new Map([
          ['s1', 1],
          ['s2', 1],
        ]),
      });
      expect(await conversationSync.acquire(accountId, memoryId, 'b2', 1_500, 2_500)).toBeUndefined();
      expect(await conversationSync.acquire(accountId, memoryId, 'b1', 1_500, 2_500)).toEqual(built); // a redelivery of its own message
      await conversationSync.markChanged(accountId, memoryId, ['s2']);
      const pending = await conversationSync.settle(accountId, memoryId, 'b1', built ?? { generation: 0, sessions: new Map() }, 3_000);
      expect(pending).toEqual({ generation: 2, sessions: new Map([['s2', 2]]) });
      expect(await conversationSync.acquire(accountId, memoryId, 'b2', 2_800, 3_800)).toBeUndefined(); // kept until 3000
      expect(
        await conversationSync.settle(accountId, memoryId, 'b1', pending ?? { generation: 0, sessions: new Map() }, 4_000),
      ).toBeUndefined();
      expect(await conversationSync.acquire(accountId, memoryId, 'b2', 2_900, 3_900)).toEqual({ generation: 2, sessions: new Map() });
    });

    it('answers nothing to a holder that lost the lease; a release leaves everything pending; delete forgets all', async () => {
      const { conversationSync } = make();
      const [accountId, memoryId] = [newId(), newId()];
      await conversationSync.markChanged(accountId, memoryId, ['s1']);
      const built = await conversationSync.acquire(accountId, memoryId, 'b1', 1_000, 2_000);
      expect(await conversationSync.acquire(accountId, memoryId, 'b2', 2_001, 3_000)).toEqual(built); // b1's lease ran out
      expect(
        await conversationSync.settle(accountId, memoryId, 'b1', built ?? { generation: 0, sessions: new Map() }, 4_000),
      ).toBeUndefined();
      await conversationSync.release(accountId, memoryId, 'b2');
      expect(await conversationSync.acquire(accountId, memoryId, 'b3', 2_100, 3_100)).toEqual({
        generation: 1,
        sessions: new Map([['s1', 1]]),
      });
      expect(await conversationSync.acquire(newId(), memoryId, 'b4', 2_100, 3_100)).toEqual({ generation: 0, sessions: new Map() });
      await conversationSync.delete(accountId, memoryId);
      expect(await conversationSync.acquire(accountId, memoryId, 'b4', 2_200, 3_200)).toEqual({ generation: 0, sessions: new Map() });
    });

    it('releases at the first settle a lease taken where nothing was ever marked, or after a delete', async () => {
      // a delivery that finds no pending change (its change built already, or the target forgotten): one
      // settle ends it; it must not keep the lease round after round with nothing to build
      const { conversationSync } = make();
      const [accountId, memoryId] = [newId(), newId()];
      const nothing = await conversationSync.acquire(accountId, memoryId, 'b1', 1_000, 2_000);
      expect(nothing).toEqual({ generation: 0, sessions: new Map() });
      expect(
        await conversationSync.settle(accountId, memoryId, 'b1', nothing ?? { generation: 0, sessions: new Map() }, 3_000),
      ).toBeUndefined();
      expect(await conversationSync.acquire(accountId, memoryId, 'b2', 1_500, 2_500)).toEqual({ generation: 0, sessions: new Map() });
      await conversationSync.delete(accountId, memoryId);
      const again = await conversationSync.acquire(accountId, memoryId, 'b3', 1_600, 2_600);
      expect(
        await conversationSync.settle(accountId, memoryId, 'b3', again ?? { generation: 0, sessions: new Map() }, 3_000),
      ).toBeUndefined();
    });

    it('counts every session of a large change', async () => {
      const { conversationSync } = make();
      const [accountId, memoryId] = [newId(), newId()];
      const sessions = Array.from({ length: 95 }, (_, i) => `s${i}`);
      await conversationSync.markChanged(accountId, memoryId, sessions);
      const pending = await conversationSync.acquire(accountId, memoryId, 'b1', 1_000, 2_000);
      expect([...(pending?.sessions.keys() ?? [])].sort()).toEqual([...sessions].sort());
      expect(
        await conversationSync.settle(accountId, memoryId, 'b1', pending ?? { generation: 0, sessions: new Map() }, 3_000),
      ).toBeUndefined();
    });
  });
}

export function messageIndexStoreContract(make: MakeStores): void {
  describe('MessageIndexStore', () => {
    it('publishes a pointer only over the version expected (0: none yet), per account', async () => {
      const { messageIndexes } = make();
      const [a, b] = [newId(), newId()];
      expect(await messageIndexes.get(a)).toBeUndefined();
      expect(await messageIndexes.publish(a, 1, { version: 2, prefix: 'x/' })).toBe(false);
      expect(await messageIndexes.publish(a, 0, { version: 1, prefix: 'p1/' })).toBe(true);
      expect(await messageIndexes.publish(a, 0, { version: 1, prefix: 'again/' })).toBe(false);
      expect(await messageIndexes.publish(a, 1, { version: 2, prefix: 'p2/' })).toBe(true);
      expect(await messageIndexes.publish(a, 1, { version: 3, prefix: 'late/' })).toBe(false);
      expect(await messageIndexes.get(a)).toEqual({ version: 2, prefix: 'p2/' });
      expect(await messageIndexes.get(b)).toBeUndefined();
    });
  });
}
