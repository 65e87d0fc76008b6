/**
 * Conversation memory under real traffic, over HTTP against the test runtime: a history of 15 sessions
 * holding 320 messages attached in one call, and 250 messages written concurrently across 25 attached
 * sessions (`npm run bench:conversations` runs both at larger sizes: 629 messages of 29 sessions, 1,000
 * over 50). Every message ends up in the
 * memory's index exactly once and a search for it finds it, and the changes fold into a handful of index
 * builds instead of one (or more) per change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../bench/support/api';
import { importHistory, messageBurst, type Scenario, searchFinds, untilSearchable } from '../../bench/support/conversation-traffic';
import { publishedChunks } from '../support/published-index';
import { env, pollPause } from '../support/api';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

const api = () => apiClient(env().url, env().keyTraffic);

/** The message ids in the memory's published index, in index order. */
async function indexedIds(memoryId: string): Promise<string[]> {
  const memory = (await api().get(`/memories/get/${memoryId}`)).data as { organizationID: string };
  const stored = await stores.memories.get(memory.organizationID, memoryId);
  if (!stored?.indexPrefix) return [];
  return (await publishedChunks(stores.objects, stored)).flatMap((c) => (c.message ? [c.message.id] : []));
}

async function expectAllSearchable(scenario: Scenario): Promise<number> {
  const version = await untilSearchable(api(), scenario, 120_000, 0, pollPause);
  const ids = await indexedIds(scenario.memoryId);
  expect(ids).toHaveLength(new Set(ids).size); // none twice
  expect(new Set(ids)).toEqual(new Set(scenario.messages.map((m) => m.id)));
  const sample = scenario.messages.filter((_, i) => i % Math.ceil(scenario.messages.length / 25) === 0);
  for (const message of sample) expect(await searchFinds(api(), scenario.memoryId, message)).toBe(true);
  return version - scenario.versionBefore;
}

describe('conversation memory under real traffic', () => {
  // half the bench's history (29 sessions, 629 messages), as long a session: a handful of builds is the property
  it('indexes a history of 15 sessions and 320 messages attached in one call', { timeout: 180_000 }, async () => {
    const scenario = await importHistory(api(), 'import', { sessions: 15, messages: 320, sameTime: true });
    const builds = await expectAllSearchable(scenario);
    expect(builds).toBeLessThanOrEqual(3);
  });

  // the burst is as concurrent as it was at 1,000 messages over 50 sessions (20 writes at once), at a quarter
  // of the size (10 a session): the fold ratio (fewer builds than a fifth of the messages) is the property, not
  // the count; each build indexes every message so far, so the burst's cost grows with the square of its size
  it('indexes 250 messages written concurrently across 25 attached sessions, each once', { timeout: 180_000 }, async () => {
    const scenario = await messageBurst(api(), 'burst', { sessions: 25, messages: 250, concurrency: 20 });
    const builds = await expectAllSearchable(scenario);
    expect(builds).toBeLessThan(250 / 5);
  });
});
