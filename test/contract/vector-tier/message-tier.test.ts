/**
 * The account's message index in the vector tier (issue #27, docs/scale.md), through the real
 * @aws-sdk/client-s3vectors client against the S3 Vectors double on 127.0.0.1, the rest of kmem's stores
 * in memory: an account whose live messages pass the threshold gets its own index generation holding
 * their vectors, and `GET /messages/search` answers as the same account resident; a merge keeps the
 * store to the live messages; deleting sessions moves the index back below 80% of the threshold (every
 * generation dropped); erasing the account drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryTestDeps } from '../../support/memory';
import { startTierTwins } from '../../support/tier-twins';
import type { S3VectorsDouble } from '../../../functions/local/s3vectors-double';
import { syncMessageIndex } from '../../../functions/core/ingest/message-index';
import { mergeMessageIndex } from '../../../functions/core/ingest/message-merge';
import { createAccount } from '../../../functions/core/use-cases/accounts';
import { eraseAccount } from '../../../functions/core/use-cases/account-erasure';
import { createSession, deleteSession } from '../../../functions/core/use-cases/sessions';
import { createMessage } from '../../../functions/core/use-cases/messages';
import { type MessageSearch, searchMessages } from '../../../functions/core/use-cases/message-search';
import { type IndexManifest, liveChunks, readManifest } from '../../../functions/core/stored-index/manifest';
import { objectKeys } from '../../../functions/core/object-keys';
import { vectorIndexName } from '../../../functions/core/vector-tier/index-names';

const BUCKET = 'kmem-message-tier';
/** In the tier above 12 live messages, back below 80% of it (9.6). */
const THRESHOLD = 12;

const SESSIONS: Record<string, string[]> = {
  tides: ['the tide rises with the moon over the harbour', 'ocean tides follow the moon and the sun', 'low tide leaves boats on the sand'],
  owls: ['the owl hunts mice at night in the forest', 'owls see well in the dark and fly silently', 'a barn owl nests in the old church'],
  bread: ['rye bread needs salt water and a sour starter', 'the baker shapes the dough before dawn', 'fresh bread cools on the table'],
  glaciers: ['the glacier carved a deep valley', 'meltwater from the ice feeds the river', 'glaciers move slowly down the slope'],
  chess: ['the knight moves in an L shape', 'a pawn that reaches the last rank becomes a queen', 'castling protects the king early'],
};

const QUERIES = ['moon and the tide', 'owl flying at night', 'baking rye bread', 'ice in the valley', 'chess queen and king'];

let double: S3VectorsDouble;
let tiered: MemoryTestDeps;
let resident: MemoryTestDeps;

beforeAll(async () => {
  ({ double, tiered, resident } = await startTierTwins(BUCKET, THRESHOLD));
}, 120_000);

afterAll(async () => {
  await double?.close();
});

interface Account {
  deps: MemoryTestDeps;
  accountId: string;
  /** Session id by topic. */
  sessions: Map<string, string>;
}

let holders = 0;

async function account(deps: MemoryTestDeps, name: string, topics: readonly string[]): Promise<Account> {
  const accountId = (await createAccount(deps, `${name}-${process.pid}-${Date.now()}-${Math.random()}`)).account.id;
  const sessions = new Map<string, string>();
  for (const topic of topics) {
    const sessionId = (await createSession(deps, accountId, {})).id;
    sessions.set(topic, sessionId);
    for (const content of SESSIONS[topic] ?? []) await createMessage(deps, accountId, { sessionId, role: 'user', content });
  }
  await sync({ deps, accountId, sessions });
  return { deps, accountId, sessions };
}

async function sync(a: Account): Promise<void> {
  await syncMessageIndex(a.deps.worker, { kind: 'messages.sync', accountId: a.accountId, sessionId: 'any' }, `holder-${++holders}`);
}

async function manifestOf(a: Account): Promise<IndexManifest> {
  const pointer = await a.deps.messageIndexes.get(a.accountId);
  return (await readManifest(a.deps.objects, objectKeys.messageIndexRoot(a.accountId), pointer?.prefix ?? ''))!;
}

const live = (manifest: IndexManifest): number => manifest.segments.reduce((sum, entry) => sum + liveChunks(entry), 0);

/** Every generation of the account's message index in the store. */
function indexesOf(a: Account): string[] {
  const base = vectorIndexName({ accountId: a.accountId, messages: true });
  return double.indexNames(BUCKET).filter((name) => name === base || name.startsWith(`${base}-`));
}

/**
 * The contents a search answers, best first (message ids differ between the twin accounts; scores differ
 * in the third decimal: the tier compares float32 vectors, a resident index its int8 rows).
 */
async function search(a: Account, query: string, extra: Partial<MessageSearch> = {}): Promise<string[]> {
  const found = await searchMessages(a.deps, a.accountId, { query, topK: 5, ...extra });
  return found.map((hit) => hit.message.content);
}

async function expectSameAnswers(t: Account, r: Account): Promise<void> {
  for (const query of QUERIES) expect(await search(t, query)).toEqual(await search(r, query));
  const owls = { sessionId: t.sessions.get('owls') ?? '' };
  const residentOwls = { sessionId: r.sessions.get('owls') ?? '' };
  if (owls.sessionId) expect(await search(t, 'night', owls)).toEqual(await search(r, 'night', residentOwls));
}

describe("the account's message index in the tier", { timeout: 120_000 }, () => {
  it('moves past the threshold into its own generation, answers as resident, and moves back below', async () => {
    const topics = Object.keys(SESSIONS);
    const [t, r] = [await account(tiered, 'msg-tier', topics), await account(resident, 'msg-resident', topics)];
    const manifest = await manifestOf(t);
    expect(manifest.vectorTier).toEqual({ dimension: expect.any(Number), generation: expect.stringMatching(/^v\d+-[0-9a-f]{8}$/) });
    expect(live(manifest)).toBe(15);
    const [index, ...others] = indexesOf(t);
    expect(others).toEqual([]);
    expect(index).toMatch(/^s-[0-9a-f]{40}-v\d+-[0-9a-f]{8}$/);
    expect(double.sizeOf(BUCKET, index ?? '')).toBe(15);
    const queries = double.calls.QueryVectors ?? 0;
    await expectSameAnswers(t, r);
    expect(double.calls.QueryVectors ?? 0).toBeGreaterThan(queries);

    // a merge (when due) keeps the store to the live messages; 12 live after one session goes: still tiered
    for (const a of [t, r]) await deleteSession(a.deps, a.accountId, a.sessions.get('bread') ?? '');
    for (const a of [t, r]) await sync(a);
    for (const a of [t, r]) await mergeMessageIndex(a.deps.worker, { kind: 'messages.merge', accountId: a.accountId });
    const after = await manifestOf(t);
    expect(after.vectorTier?.generation).toBe(manifest.vectorTier?.generation);
    expect(double.sizeOf(BUCKET, index ?? '')).toBe(live(after));
    expect(live(after)).toBe(12);
    await expectSameAnswers(t, r);

    // 9 live: below 80% of 12, back in the segments, every generation dropped
    for (const a of [t, r]) await deleteSession(a.deps, a.accountId, a.sessions.get('chess') ?? '');
    for (const a of [t, r]) await sync(a);
    expect((await manifestOf(t)).vectorTier).toBeUndefined();
    expect(indexesOf(t)).toEqual([]);
    await expectSameAnswers(t, r);
  });

  it("erasing the account drops its message index's generations", async () => {
    const t = await account(tiered, 'msg-erase', Object.keys(SESSIONS));
    expect(indexesOf(t)).toHaveLength(1);
    const name = (await tiered.accounts.get(t.accountId))?.name ?? '';
    // the table sweep is the DynamoDB adapter's (test/api/erasure-accounts.test.ts runs it whole): not what this checks
    const tableSweep = { markDeleting: async () => undefined, deleteTenantItems: async () => 0, deleteAccount: async () => undefined };
    await eraseAccount({ ...tiered, accountErasure: tableSweep }, name, { settleMs: 0, wait: async () => undefined });
    expect(indexesOf(t)).toEqual([]);
  });
});
