/**
 * The account's message index in segments, on stores in memory (docs/segments.md, "The account's message
 * index"): each `messages.sync` writes one new segment of the changed sessions and tombstones their old
 * chunks; `messages.merge` purges deleted text; search over the composed segments ranks as a build from
 * nothing of the live messages; crashes and races leave a searchable index; an old monolithic version
 * still loads and is converted by the next sync.
 */
import { fc } from '../support/property-seed';
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createSession, deleteSession } from '../../functions/core/use-cases/sessions';
import { createMessage, deleteMessage } from '../../functions/core/use-cases/messages';
import { searchMessages } from '../../functions/core/use-cases/message-search';
import { syncMessageIndex } from '../../functions/core/ingest/message-index';
import { mergeMessageIndex } from '../../functions/core/ingest/message-merge';
import { retireBuilds } from '../../functions/core/ingest/retire-builds';
import { conversationChunks } from '../../functions/core/ingest/conversation-chunks';
import { messagesOf } from '../../functions/core/ingest/conversation-sync';
import { toRetrievalChunk } from '../../functions/core/ingest/index-build';
import { encodeChunks } from '../../functions/core/stored-index/chunks';
import { IndexCache, type LoadedIndex } from '../../functions/core/stored-index/index-cache';
import { folderOf, type IndexManifest, readManifest } from '../../functions/core/stored-index/manifest';
import { objectKeys } from '../../functions/core/object-keys';
import type { MessageIndexStore, ObjectStore } from '../../functions/core/ports';
import type { WorkMessage } from '../../functions/core/work';
import { rankChunks } from '../../functions/engine/retrieval/rank';
import { buildRetrievalIndex, type RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import { serializeRetrievalIndex } from '../../functions/engine/retrieval/index-format';

const base = memoryDeps(memoryConfig({ KMEM_GRAPH_WORD_VECTORS: 'false' }));

interface Harness {
  accountId: string;
  /** The use cases' deps (their queue records what they send). */
  api: typeof base;
  /** The worker's deps: objects put are counted, publishes can be hooked. */
  worker: typeof base.worker;
  sent: WorkMessage[];
  puts: Map<string, number>;
  /** Keys of every object read. */
  gets: string[];
  /** Runs before the next publish of the account's pointer (once). */
  beforePublish: { hook?: () => Promise<void> };
}

let holders = 0;

async function harness(): Promise<Harness> {
  const accountId = (await createAccount(base, `msgseg-${process.pid}-${Date.now()}-${Math.random()}`)).account.id;
  const sent: WorkMessage[] = [];
  const puts = new Map<string, number>();
  const gets: string[] = [];
  const beforePublish: Harness['beforePublish'] = {};
  const queue = Object.assign(Object.create(base.queue) as typeof base.queue, {
    send: async (body: unknown) => void sent.push(body as WorkMessage),
  });
  const store = base.worker.objects;
  const objects: ObjectStore = Object.assign(Object.create(store) as ObjectStore, {
    put: (key: string, body: Uint8Array | string, type?: string) => {
      puts.set(key, typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      return store.put(key, body, type);
    },
    get: (key: string) => (gets.push(key), store.get(key)),
  });
  const messageIndexes: MessageIndexStore = {
    get: (id) => base.worker.messageIndexes.get(id),
    publish: async (...args) => {
      const hook = beforePublish.hook;
      beforePublish.hook = undefined;
      await hook?.();
      return base.worker.messageIndexes.publish(...args);
    },
  };
  return {
    accountId,
    api: { ...base, queue },
    worker: { ...base.worker, objects, queue, messageIndexes },
    sent,
    puts,
    gets,
    beforePublish,
  };
}

/** Builds everything pending (what a `messages.sync` delivery does). */
async function sync(h: Harness): Promise<void> {
  await syncMessageIndex(h.worker, { kind: 'messages.sync', accountId: h.accountId, sessionId: 'any' }, `holder-${++holders}`);
}

const merge = (h: Harness): Promise<number> => mergeMessageIndex(h.worker, { kind: 'messages.merge', accountId: h.accountId });

const root = (h: Harness): string => objectKeys.messageIndexRoot(h.accountId);

async function current(h: Harness): Promise<{ version: number; prefix: string; manifest: IndexManifest }> {
  const pointer = (await base.messageIndexes.get(h.accountId))!;
  return { ...pointer, manifest: (await readManifest(base.objects, root(h), pointer.prefix))! };
}

/** The published version as a cold container loads it. */
async function loaded(h: Harness): Promise<LoadedIndex> {
  const { version, prefix } = await current(h);
  return new IndexCache(base.objects, 2).loadBuild(`${h.accountId}@${version}`, root(h), prefix, version);
}

const QUERIES = ['tide moon', 'owl hunts at night', 'rye bread salt', 'glacier valley river stone'];

function ranking(index: RetrievalIndex, query: string, vector: Float32Array | null): Array<[string, number]> {
  return rankChunks(index, { query, queryVector: vector, limit: 8 }).map((hit) => [
    index.chunks.ids[hit.ordinal] ?? '',
    Math.round(hit.score * 1e9),
  ]);
}

/** Every live message of the account's live sessions, as chunks, by id. */
async function liveChunks(h: Harness, sessionIds: readonly string[]) {
  const chunks = [];
  for (const sessionId of sessionIds) {
    const session = await base.sessions.get(h.accountId, sessionId);
    if (session && !session.deletedAt) chunks.push(...conversationChunks(await messagesOf(base, h.accountId, sessionId)));
  }
  return new Map(chunks.map((chunk) => [chunk.id, chunk]));
}

/** The published index holds exactly the live messages and equals (bytes and rankings) a build from nothing of them. */
async function expectSameAsFresh(h: Harness, sessionIds: readonly string[]): Promise<void> {
  const index = await loaded(h);
  const live = await liveChunks(h, sessionIds);
  // the records by ordinal, with their texts (a loaded index fills a text in when its chunk is asked for)
  const ordered = (index.records ?? []).flatMap((record) => index.chunks.get(record.id) ?? []);
  expect(ordered.map((chunk) => chunk.id).sort()).toEqual([...live.keys()].sort());
  if (live.size === 0) return; // an empty version: nothing to rank
  for (const chunk of ordered)
    expect({ text: chunk.text, context: chunk.context }).toEqual({ text: live.get(chunk.id)?.text, context: live.get(chunk.id)?.context });
  const embedder = base.worker.indexing.embedder();
  const fresh = await buildRetrievalIndex(ordered.map(toRetrievalChunk), embedder ? { embedder } : {});
  expect(Buffer.from(serializeRetrievalIndex(index.retrieval))).toEqual(Buffer.from(serializeRetrievalIndex(fresh)));
  for (const query of QUERIES) {
    const vector = embedder ? ((await embedder.embed([query]))[0] ?? null) : null;
    expect(ranking(index.retrieval, query, vector)).toEqual(ranking(fresh, query, vector));
  }
}

/** Every object under the account's message index root, as text. */
async function storedText(h: Harness, only?: ReadonlySet<string>): Promise<string> {
  const keys = (await base.objects.list(root(h))).filter((key) => !only || only.has(key.slice(root(h).length).split('/')[0] ?? ''));
  const texts = await Promise.all(keys.map(async (key) => Buffer.from((await base.objects.get(key)) ?? []).toString('latin1')));
  return texts.join('\n');
}

/** The folders under the root, and those the current version names. */
async function folders(h: Harness): Promise<{ stored: Set<string>; named: Set<string> }> {
  const { prefix, manifest } = await current(h);
  const stored = new Set((await base.objects.list(root(h))).map((key) => key.slice(root(h).length).split('/')[0] ?? ''));
  return { stored, named: new Set([prefix.slice(root(h).length, -1), ...manifest.segments.map((entry) => entry.id)]) };
}

const WORDS = ['tide', 'moon', 'owl', 'hunts', 'night', 'rye', 'bread', 'salt', 'glacier', 'valley', 'river', 'stone', 'wind'];
const textArbitrary = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));

const opArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), session: fc.nat(3), text: textArbitrary }),
  fc.record({ kind: fc.constant('add' as const), session: fc.nat(3), text: textArbitrary }),
  // a message dated before the others: the context of the messages after it changes (an edit of their chunks)
  fc.record({ kind: fc.constant('insert' as const), session: fc.nat(3), text: textArbitrary }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('drop-session' as const), session: fc.nat(3) }),
  fc.record({ kind: fc.constant('sync' as const) }),
  fc.record({ kind: fc.constant('merge' as const) }),
);

const at = (minutes: number): string => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();

describe('the account message index in segments', () => {
  it('ranks after any sequence of adds, edits, deletes, session deletes, syncs and merges as a build from nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 16 }), async (ops) => {
        const h = await harness();
        const sessions: string[] = [];
        for (let i = 0; i < 4; i++) sessions.push((await createSession(h.api, h.accountId, {})).id);
        const messages: string[] = [];
        let clock = 1_000;
        for (const op of ops) {
          if (op.kind === 'add' || op.kind === 'insert') {
            const sessionId = sessions[op.session]!;
            const session = await base.sessions.get(h.accountId, sessionId);
            if (session?.deletedAt) continue;
            const createdAt = op.kind === 'add' ? at(clock++) : at(clock - 500 - messages.length);
            messages.push((await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: op.text, createdAt })).id);
          } else if (op.kind === 'delete' && messages.length > 0) {
            const [id] = messages.splice(op.pick % messages.length, 1);
            if (await base.messages.get(h.accountId, id!)) await deleteMessage(h.api, h.accountId, id!);
          } else if (op.kind === 'drop-session') {
            const sessionId = sessions[op.session]!;
            if (!(await base.sessions.get(h.accountId, sessionId))?.deletedAt) await deleteSession(h.api, h.accountId, sessionId);
          } else if (op.kind === 'sync') {
            await sync(h);
          } else if (op.kind === 'merge') {
            await merge(h);
          }
        }
        await sync(h);
        if (await base.messageIndexes.get(h.accountId)) await expectSameAsFresh(h, sessions);
      }),
      { numRuns: 40 },
    );
  }, 300_000);

  it('writes one small segment for one new message, of a size that does not grow with the account', async () => {
    const h = await harness();
    const chat = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId: chat, role: 'user', content: 'the owl hunts at night' });
    await sync(h);
    const written = async (sessionId: string, content: string): Promise<{ segment: number; manifest: number; segmentFolders: number }> => {
      h.puts.clear();
      await createMessage(h.api, h.accountId, { sessionId, role: 'assistant', content });
      await sync(h);
      const keys = [...h.puts.keys()];
      const sum = (wanted: (key: string) => boolean) => keys.filter(wanted).reduce((total, key) => total + (h.puts.get(key) ?? 0), 0);
      return {
        segment: sum((key) => key.includes('/index/s')),
        manifest: sum((key) => key.endsWith('manifest.json')),
        segmentFolders: new Set(keys.filter((key) => key.includes('/index/s')).map((key) => key.split('/').at(-2))).size,
      };
    };
    const small = await written(chat, 'rye bread and salt by the river');
    // grow the account: 600 messages in 30 other sessions, in one build
    const bulk: string[] = [];
    for (let s = 0; s < 30; s++) {
      const sessionId = (await createSession(h.api, h.accountId, {})).id;
      bulk.push(sessionId);
      for (let m = 0; m < 20; m++) {
        const content = `status ${s}-${m}: ${WORDS[(s + m) % WORDS.length]} ${WORDS[(s * m) % WORDS.length]} report for the week`;
        await createMessage(h.api, h.accountId, { sessionId, role: 'user', content });
      }
    }
    await sync(h);
    const later = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId: later, role: 'user', content: 'the owl hunts at night' });
    await sync(h);
    const large = await written(later, 'rye bread and salt by the river');
    expect(large.segmentFolders).toBe(1);
    expect(small.segmentFolders).toBe(1);
    // a session of two messages either way: the bulk segment is not rewritten
    expect(Math.abs(large.segment - small.segment)).toBeLessThan(small.segment * 0.05);
    expect(large.manifest).toBeLessThan(600);
    const { manifest } = await current(h);
    // the chat's segment, the bulk one and the later session's newest: its older segment was dropped whole
    expect(manifest.segments.map((entry) => entry.chunks)).toEqual([2, 600, 2]);
    expect(manifest.segments.every((entry) => entry.deleted.length === 0)).toBe(true);
    await expectSameAsFresh(h, [chat, later, ...bulk]);
  }, 120_000);

  it('leaves the published index untouched when a build dies between writing its segment and publishing; the next publish collects it', async () => {
    const h = await harness();
    const sessionId = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'the owl hunts at night' });
    await sync(h);
    const before = await current(h);
    await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'glacier valley river' });
    h.beforePublish.hook = async () => {
      throw new Error('worker killed');
    };
    await expect(sync(h)).rejects.toThrow('worker killed');
    expect(await current(h)).toEqual(before);
    const orphaned = await folders(h);
    expect(orphaned.stored.size).toBeGreaterThan(orphaned.named.size); // the dead build's version and segment
    await sync(h); // still pending: built again
    const after = await folders(h);
    expect(after.stored).toEqual(new Set([...after.named, ...[...orphaned.named]])); // the published and the one before
    await expectSameAsFresh(h, [sessionId]);
  }, 60_000);

  it('publishes a merge that lost the race to a sync on the new version, with both changes', async () => {
    const h = await harness();
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) {
      const sessionId = (await createSession(h.api, h.accountId, {})).id;
      sessions.push(sessionId);
      await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: `${WORDS[i]} ${WORDS[i + 1]} number ${i}` });
      h.sent.length = 0;
      await sync(h);
    }
    expect(h.sent.map((message) => message.kind)).toEqual(['messages.merge']); // the eighth segment fills tier 0
    // a sync publishes while the merge is writing: the merge loses, and merges again from the new version
    h.beforePublish.hook = async () => {
      await createMessage(h.api, h.accountId, { sessionId: sessions[0]!, role: 'user', content: 'wind over the salt marsh' });
      await sync(h);
    };
    expect(await merge(h)).toBe(1);
    const { manifest } = await current(h);
    expect(manifest.segments).toHaveLength(1);
    expect(await merge(h)).toBe(0); // redelivered: nothing due
    await expectSameAsFresh(h, sessions);
    const { stored, named } = await folders(h);
    expect([...named].every((name) => stored.has(name))).toBe(true);
  }, 60_000);

  it('publishes a merge that lost the race to a sync on the new version without merging again, the chunks deleted meanwhile deleted', async () => {
    const h = await harness();
    const sessions: string[] = [];
    for (let i = 0; i < 9; i++) sessions.push((await createSession(h.api, h.accountId, {})).id);
    const say = (sessionId: string, content: string) => createMessage(h.api, h.accountId, { sessionId, role: 'user', content });
    await say(sessions[0]!, 'tide and moon');
    await say(sessions[8]!, 'the owl hunts at night'); // shares the first segment with session 0
    await say(sessions[8]!, 'my zebracode is 4471');
    await sync(h);
    for (let i = 1; i < 8; i++) {
      await say(sessions[i]!, `${WORDS[i]} ${WORDS[i + 1]} number ${i}`);
      h.sent.length = 0;
      await sync(h);
    }
    expect(h.sent.map((message) => message.kind)).toEqual(['messages.merge']);
    const merging = (await current(h)).manifest.segments.map((entry) => entry.id);
    // a sync replaces session 8 (a message deleted) while the merge is writing: the first segment keeps session 0
    h.beforePublish.hook = async () => {
      const [first] = (await messagesOf(base, h.accountId, sessions[8]!)).filter((message) => message.content.includes('zebracode'));
      await deleteMessage(h.api, h.accountId, first!.id);
      await sync(h);
    };
    h.gets.length = 0;
    const published: IndexManifest[] = [];
    const publish = h.worker.messageIndexes.publish;
    h.worker.messageIndexes.publish = async (...args) => {
      const won = await publish(...args);
      if (won) published.push((await current(h)).manifest);
      return won;
    };
    // the rebased merge, then the purge it leaves due (a message was deleted meanwhile)
    expect(await merge(h)).toBe(2);
    const read = h.gets.filter((key) => key.endsWith('/retrieval.idx')).map((key) => key.split('/').at(-2) ?? '');
    expect(read.filter((id) => merging.includes(id)).sort()).toEqual([...merging].sort()); // each read once: not merged again
    const [sync8, rebased, purged] = published;
    expect(sync8?.segments).toHaveLength(9);
    // session 8's two old chunks deleted in the merged segment, flagged for purging; then session 8's new segment
    expect(rebased?.segments).toHaveLength(2);
    expect(rebased?.segments[0]).toMatchObject({ chunks: 10, deleted: [1, 2], purge: true });
    expect(purged?.segments[0]).toMatchObject({ chunks: 8, deleted: [] });
    expect(await storedText(h, (await folders(h)).named)).not.toContain('zebracode');
    await expectSameAsFresh(h, sessions);
  }, 60_000);

  it('purges a deleted message and a deleted session from every live segment at the merge that follows, then retires the old versions', async () => {
    const h = await harness();
    const sessionId = (await createSession(h.api, h.accountId, {})).id;
    const other = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'the owl hunts at night' });
    const secret = await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'my zebracode is 4471' });
    await createMessage(h.api, h.accountId, { sessionId: other, role: 'user', content: 'the quokkaword is 9' });
    await createMessage(h.api, h.accountId, { sessionId: other, role: 'user', content: 'rye bread and salt' });
    const keep = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId: keep, role: 'user', content: 'glacier valley' });
    await sync(h); // one segment holding all three sessions
    h.sent.length = 0;
    await deleteMessage(h.api, h.accountId, secret.id);
    await deleteSession(h.api, h.accountId, other);
    await sync(h);
    const { manifest } = await current(h);
    expect(manifest.segments[0]?.purge).toBe(true);
    expect(h.sent.filter((message) => message.kind === 'messages.merge')).toHaveLength(1);
    const named = (await folders(h)).named;
    expect(await storedText(h, named)).toContain('zebracode'); // tombstoned, not yet purged
    const found = await searchMessages({ ...base, indexes: new IndexCache(base.objects, 2) }, h.accountId, { query: 'zebracode', topK: 5 });
    expect(found.map((hit) => hit.message.content).join(' ')).not.toContain('zebracode');
    expect(await merge(h)).toBe(1);
    const after = await folders(h);
    expect(await storedText(h, after.named)).not.toContain('zebracode');
    expect(await storedText(h, after.named)).not.toContain('quokkaword');
    const retire = h.sent.find((message) => message.kind === 'index.retire');
    expect(retire).toMatchObject({ accountId: h.accountId, version: (await current(h)).version });
    await retireBuilds(base.worker, retire as Extract<WorkMessage, { kind: 'index.retire' }>);
    expect(await storedText(h)).not.toContain('zebracode');
    expect(await storedText(h)).not.toContain('quokkaword');
    expect((await folders(h)).stored).toEqual(after.named);
    await expectSameAsFresh(h, [sessionId, other, keep]);
  }, 60_000);

  it('retires, with the version that dropped deleted text, a folder of that number a writer that lost to it left holding the text', async () => {
    const h = await harness();
    const secret = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId: secret, role: 'user', content: 'my zebracode is 4471' });
    await sync(h); // a segment of the secret session alone
    const other = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId: other, role: 'user', content: 'tide and moon' });
    await sync(h);
    const [held] = (await current(h)).manifest.segments;
    h.sent.length = 0;
    await deleteSession(h.api, h.accountId, secret);
    await sync(h); // drops the secret's segment whole: no purge merge, the retirement is queued at once
    const { version, prefix, manifest } = await current(h);
    expect(manifest.segments.map((entry) => entry.id)).not.toContain(held?.id);
    const retire = h.sent.find((message) => message.kind === 'index.retire');
    expect(retire).toEqual({ kind: 'index.retire', accountId: h.accountId, version, prefix });
    // a merge that read the secret's segment live and lost this publish: its last object landed after the
    // publish collected the losers' folders (or it crashed before deleting them), in a folder of the same number
    const lost = objectKeys.messageIndexSegmentPrefix(h.accountId, version, 'lost-merge');
    for (const key of await base.objects.list(folderOf(root(h), held?.id ?? '')))
      await base.objects.put(lost + key.split('/').at(-1), (await base.objects.get(key)) ?? new Uint8Array());
    expect(await storedText(h)).toContain('zebracode');
    await retireBuilds(base.worker, retire as Extract<WorkMessage, { kind: 'index.retire' }>);
    expect(await storedText(h)).not.toContain('zebracode');
    const retired = await folders(h);
    expect(retired.stored).toEqual(retired.named);
    // delivered again after a version after it: the retired one is now the version before, which readers
    // may still be loading, and stays with its segments
    await createMessage(h.api, h.accountId, { sessionId: other, role: 'user', content: 'owl hunts at night' });
    await sync(h);
    await retireBuilds(base.worker, retire as Extract<WorkMessage, { kind: 'index.retire' }>);
    const after = await folders(h);
    expect(after.stored).toEqual(new Set([...after.named, ...retired.named]));
    await expectSameAsFresh(h, [secret, other]);
  }, 60_000);

  it('answers a search whose version was collected while it loaded, from the version published since', async () => {
    const h = await harness();
    const sessionId = (await createSession(h.api, h.accountId, {})).id;
    await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'the owl hunts at night' });
    await sync(h);
    const read = await current(h);
    // two syncs while a cold container loads the version it read: the second collects that version
    let raced = false;
    const objects: ObjectStore = Object.assign(Object.create(base.objects) as ObjectStore, {
      get: async (key: string) => {
        if (!raced && key.startsWith(read.prefix)) {
          raced = true;
          for (const content of ['the zebracode glacier', 'rye bread and salt']) {
            await createMessage(h.api, h.accountId, { sessionId, role: 'user', content });
            await sync(h);
          }
        }
        return base.objects.get(key);
      },
    });
    const found = await searchMessages({ ...base, indexes: new IndexCache(objects, 2) }, h.accountId, { query: 'zebracode', topK: 3 });
    expect(await base.objects.list(read.prefix)).toEqual([]); // collected while it loaded
    expect(found.map((hit) => hit.message.content)).toContain('the zebracode glacier');
  }, 60_000);

  it('loads a monolithic version written before segments, and converts it at the next sync', async () => {
    const h = await harness();
    const sessionId = (await createSession(h.api, h.accountId, {})).id;
    for (const content of ['the owl hunts at night', 'tide and moon', 'rye bread and salt'])
      await createMessage(h.api, h.accountId, { sessionId, role: 'user', content });
    await base.messageIndexSync.delete(h.accountId, h.accountId); // as if built before segments
    // the old build: chunks.json (with texts) and retrieval.idx in the version's folder, no manifest
    const chunks = conversationChunks(await messagesOf(base, h.accountId, sessionId));
    const embedder = base.worker.indexing.embedder();
    const retrieval = await buildRetrievalIndex(chunks.map(toRetrievalChunk), embedder ? { embedder } : {});
    const prefix = objectKeys.messageIndexPrefix(h.accountId, 1, 'legacy');
    await base.objects.put(`${prefix}chunks.json`, encodeChunks(chunks), 'application/json');
    await base.objects.put(`${prefix}retrieval.idx`, serializeRetrievalIndex(retrieval));
    expect(await base.messageIndexes.publish(h.accountId, 0, { version: 1, prefix })).toBe(true);
    const search = (query: string) =>
      searchMessages({ ...base, indexes: new IndexCache(base.objects, 4) }, h.accountId, { query, topK: 3 });
    expect((await search('owl at night'))[0]?.message.content).toBe('the owl hunts at night');
    await expectSameAsFresh(h, [sessionId]);
    await createMessage(h.api, h.accountId, { sessionId, role: 'user', content: 'glacier valley river' });
    await sync(h);
    const { manifest } = await current(h);
    expect(manifest.segments).toHaveLength(1);
    expect(manifest.segments[0]?.id).toMatch(/^s2-/);
    expect((await search('glacier'))[0]?.message.content).toBe('glacier valley river');
    await expectSameAsFresh(h, [sessionId]);
  }, 60_000);
});
