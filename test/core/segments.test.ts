/**
 * The segmented memory index on stores in memory (docs/segments.md): each build writes one new segment
 * holding only what it adds and tombstones what it replaces or removes; the composed index ranks exactly
 * as a build from nothing of the live chunks; merges purge deleted text, survive crashes and races; the
 * bytes a one-file ingestion writes do not grow with the memory.
 */
import { fc } from '../support/property-seed';
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import { buildAndPublishIndex, type IndexDeps } from '../../functions/core/ingest/memory-index';
import { mergeMemory } from '../../functions/core/ingest/merge-memory';
import { retireBuilds } from '../../functions/core/ingest/retire-builds';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';
import { lookUpEntities } from '../../functions/core/use-cases/memory-entities';
import { encodeChunks, type StoredChunk } from '../../functions/core/stored-index/chunks';
import { IndexCache } from '../../functions/core/stored-index/index-cache';
import { type IndexManifest, readManifest } from '../../functions/core/stored-index/manifest';
import type { Memory } from '../../functions/core/model';
import type { MemoryStore, ObjectStore } from '../../functions/core/ports';
import type { WorkMessage } from '../../functions/core/work';
import { rankChunks } from '../../functions/engine/retrieval/rank';
import { termPostings } from '../../functions/engine/lexical/segment';
import { buildRetrievalIndex, type RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import { serializeRetrievalIndex } from '../../functions/engine/retrieval/index-format';
import { serializeRetrievalIndexV1 } from '../support/legacy-index-formats';
import { toRetrievalChunk } from '../../functions/core/ingest/index-build';
import type { Embedder } from '../../functions/engine/retrieval/embedder';
import { fileSource } from '../../functions/core/source-ref';

const base = memoryDeps(memoryConfig({ KMEM_GRAPH_WORD_VECTORS: 'false' }));

interface Harness {
  deps: IndexDeps;
  accountId: string;
  memoryId: string;
  sent: WorkMessage[];
  /** Bytes of every object put, by key. */
  puts: Map<string, number>;
  /** Runs before the next commit of the memory item (once). */
  beforeCommit: { hook?: () => Promise<void> };
}

async function harness(memoryType: 'vector' | 'graph' = 'vector'): Promise<Harness> {
  const accountId = (await createAccount(base, `seg-${process.pid}-${Date.now()}-${Math.random()}`)).account.id;
  const memory = await createMemory(
    base,
    accountId,
    memoryType === 'graph' ? { name: 'g', memoryType, ontology: 'culture' } : { name: 'm', memoryType },
  );
  const sent: WorkMessage[] = [];
  const puts = new Map<string, number>();
  const beforeCommit: Harness['beforeCommit'] = {};
  const store = base.worker.objects;
  const objects: ObjectStore = Object.assign(Object.create(store) as ObjectStore, {
    put: (key: string, body: Uint8Array | string, type?: string) => {
      puts.set(key, typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      return store.put(key, body, type);
    },
  });
  const memories: MemoryStore = Object.assign(Object.create(base.worker.memories) as MemoryStore, {
    commitIndexVersion: async (...args: Parameters<MemoryStore['commitIndexVersion']>) => {
      const hook = beforeCommit.hook;
      beforeCommit.hook = undefined;
      await hook?.();
      return base.worker.memories.commitIndexVersion(...args);
    },
  });
  const queue = { send: async (body: unknown) => void sent.push(body as WorkMessage) };
  return { deps: { ...base.worker, objects, memories, queue }, accountId, memoryId: memory.id, sent, puts, beforeCommit };
}

const now = () => new Date().toISOString();

/**
 * The store as a cold container reading `read` sees it: at its first read of that version's files, two
 * ingestions publish (the second collects that version), as a memory written once a second does.
 */
function racingStore(h: Harness, read: Memory): ObjectStore {
  let raced = false;
  return Object.assign(Object.create(base.objects) as ObjectStore, {
    get: async (key: string) => {
      if (!raced && key.startsWith(read.indexPrefix ?? '-')) {
        raced = true;
        await ingest(h, 'second', ['the zebracode glacier']);
        await ingest(h, 'third', ['rye bread and salt']);
      }
      return base.objects.get(key);
    },
  });
}

async function link(h: Harness, fileId: string): Promise<void> {
  if (await base.links.get(h.accountId, h.memoryId, fileId)) return;
  await base.links.create({
    id: `${fileId}-l`,
    accountId: h.accountId,
    memoryId: h.memoryId,
    fileId,
    type: 'file',
    ingestedAt: null,
    createdAt: now(),
    updatedAt: now(),
  });
  // as adding a file does: a file removed earlier leaves the exclusions once its link exists
  await base.memories.includeSources(h.accountId, h.memoryId, [fileSource(fileId)]);
}

function chunksOf(fileId: string, texts: readonly string[]): StoredChunk[] {
  let at = 0;
  return texts.map((text, i) => {
    const chunk = { id: `${fileId}:${i}`, fileId, text, start: at, end: at + text.length, title: `Title ${fileId}` };
    at += text.length + 1;
    return chunk;
  });
}

async function ingest(h: Harness, fileId: string, texts: readonly string[], deps: IndexDeps = h.deps): Promise<void> {
  await ingestMany(h, [[fileId, texts]], deps);
}

/** One build adding several files: their chunks share one segment. */
async function ingestMany(h: Harness, files: ReadonlyArray<readonly [string, readonly string[]]>, deps: IndexDeps = h.deps): Promise<void> {
  for (const [fileId] of files) await link(h, fileId);
  // as an ingestion publishes: only the added files' links are looked up (linked-sources.ts)
  await buildAndPublishIndex(deps, h.accountId, h.memoryId, {
    added: new Map(files.map(([fileId, texts]) => [fileId, chunksOf(fileId, texts)])),
    onlyAdded: true,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
}

/**
 * Removes the file from the memory as the use case does (excluded, then unlinked) and, with `reindex`,
 * publishes without it (what `memory.reindex` does: every link listed); without, the next build leaves it out.
 */
async function remove(h: Harness, fileId: string, reindex = true): Promise<void> {
  await base.memories.excludeSources(h.accountId, h.memoryId, [fileSource(fileId)]);
  await base.links.delete(h.accountId, h.memoryId, fileId);
  if (reindex) await publishWithout(h);
}

/** A build adding nothing: a reindex (every link listed), or, `onlyAdded`, an ingestion's build of no file. */
async function publishWithout(h: Harness, onlyAdded = false): Promise<void> {
  await buildAndPublishIndex(h.deps, h.accountId, h.memoryId, {
    added: new Map(),
    onlyAdded,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
}

async function current(h: Harness): Promise<{ memory: Memory; manifest: IndexManifest; root: string }> {
  const memory = (await base.memories.get(h.accountId, h.memoryId))!;
  const root = `gold/${h.accountId}/memories/${h.memoryId}/index/`;
  const manifest = (await readManifest(base.objects, root, memory.indexPrefix!))!;
  return { memory, manifest, root };
}

async function loaded(h: Harness) {
  const { memory } = await current(h);
  return (await new IndexCache(base.objects, 2).load(memory))!;
}

const QUERIES = ['tide moon', 'owl hunts at night', 'rye bread salt', 'glacier valley river stone'];

function ranking(index: RetrievalIndex, query: string, vector: Float32Array | null, filtered = false): Array<[string, number]> {
  // a filter on files (as a chunk predicate is): only the chunks of files f0, f2 and f5 may be answered
  const allow = (ordinal: number) => ['f0', 'f2', 'f5'].includes(index.text.fileIds[index.text.docFiles[ordinal] ?? 0] ?? '');
  return rankChunks(index, { query, queryVector: vector, limit: 8, ...(filtered ? { allow } : {}) }).map((hit) => [
    index.chunks.ids[hit.ordinal] ?? '',
    Math.round(hit.score * 1e9),
  ]);
}

/**
 * The published index equals (bytes and rankings) a build from nothing of `live`, in the published order;
 * so does what `warm` (a container that loaded every version before) loads of it.
 */
async function expectSameAsFresh(h: Harness, live: ReadonlyMap<string, StoredChunk[]>, warm?: IndexCache): Promise<void> {
  const index = await loaded(h);
  const warmIndex = warm ? await warm.load((await current(h)).memory) : undefined;
  const ordered = index.retrieval.chunks.ids.map((id) => index.chunks.get(id)!);
  expect(ordered.map((chunk) => chunk.id).sort()).toEqual(
    [...live.values()]
      .flat()
      .map((chunk) => chunk.id)
      .sort(),
  );
  // the records by ordinal and by id are the live ones, read in place in the segments
  expect(index.records).toEqual(ordered);
  expect(index.chunks.size).toBe(ordered.length);
  expect([...index.chunks.keys()]).toEqual(ordered.map((chunk) => chunk.id));
  const embedder = base.worker.indexing.embedder();
  const fresh = await buildRetrievalIndex(ordered.map(toRetrievalChunk), embedder ? { embedder } : {});
  expect(Buffer.from(serializeRetrievalIndex(index.retrieval))).toEqual(Buffer.from(serializeRetrievalIndex(fresh)));
  for (const query of QUERIES) {
    const vector = embedder ? ((await embedder.embed([query]))[0] ?? null) : null;
    for (const filtered of [false, true]) {
      expect(ranking(index.retrieval, query, vector, filtered)).toEqual(ranking(fresh, query, vector, filtered));
      if (warmIndex) expect(ranking(warmIndex.retrieval, query, vector, filtered)).toEqual(ranking(fresh, query, vector, filtered));
    }
  }
  // every term's live postings, read from the segments (the small ones gathered, the warm reader's extended
  // from the version before: segment-gather.ts), are the fresh build's
  for (const read of warmIndex ? [index, warmIndex] : [index]) {
    for (const field of ['text', 'titles'] as const) {
      for (const term of fresh[field].terms) expect(termPostings(read.retrieval[field], term)).toEqual(termPostings(fresh[field], term));
    }
  }
  if (warmIndex) expect(warmIndex.records?.map((record) => record.id)).toEqual(ordered.map((chunk) => chunk.id));
  const { memory } = await current(h);
  expect(memory.chunkCount).toBe(ordered.length);
  expect(memory.fileCount).toBe(live.size);
  expect(memory.excludedFileIds).toEqual([]);
}

/** Every object of every segment the current manifest names, as text. */
async function liveSegmentText(h: Harness): Promise<string> {
  const { manifest, root } = await current(h);
  const texts = await Promise.all(
    manifest.segments.flatMap((entry) =>
      ['chunks.json', 'retrieval.idx'].map(async (name) =>
        Buffer.from((await base.objects.get(`${root}${entry.id}/${name}`)) ?? []).toString('latin1'),
      ),
    ),
  );
  return texts.join('\n');
}

const WORDS = ['tide', 'moon', 'owl', 'hunts', 'night', 'rye', 'bread', 'salt', 'glacier', 'valley', 'river', 'stone', 'wind'];
const textArbitrary = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(' '));
/** The file's texts with the one at `at` replaced, or a text added there (`grow`). */
function edited(chunks: readonly StoredChunk[] | undefined, op: { at: number; text: string; grow: boolean }): string[] {
  const texts = (chunks ?? []).map((chunk) => chunk.text);
  const at = Math.min(op.at, texts.length);
  if (op.grow || at === texts.length) texts.splice(at, 0, op.text);
  else texts[at] = op.text;
  return texts;
}

const opArbitrary = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    file: fc.integer({ min: 0, max: 6 }),
    texts: fc.array(textArbitrary, { minLength: 1, maxLength: 4 }),
  }),
  // without `reindex`, the next ingestion's build (which lists no link) must leave the file out
  fc.record({ kind: fc.constant('remove' as const), file: fc.integer({ min: 0, max: 6 }), reindex: fc.boolean() }),
  fc.record({ kind: fc.constant('merge' as const) }),
);

/** The harness's deps with an embedder that counts the texts it embeds (the configured one underneath). */
function counted(h: Harness): { deps: IndexDeps; embedded: string[] } {
  const real = base.worker.indexing.embedder();
  if (!real) throw new Error('the tests need the configured embedder');
  const embedded: string[] = [];
  const embedder: Embedder = {
    name: real.name,
    dimensions: real.dimensions,
    embed: (texts) => (embedded.push(...texts), real.embed(texts)),
  };
  return { deps: { ...h.deps, indexing: { ...h.deps.indexing, embedder: () => embedder } }, embedded };
}

/** The chunks of `next` whose text differs from the live chunk of the same id (or that have none). */
function changedChunks(live: ReadonlyMap<string, StoredChunk[]>, fileId: string, next: readonly StoredChunk[]): number {
  const before = new Map((live.get(fileId) ?? []).map((chunk) => [chunk.id, chunk.text]));
  return next.filter((chunk) => before.get(chunk.id) !== chunk.text).length;
}

describe('segmented memory index', () => {
  it('ranks after any sequence of adds, replaces, removes and merges as a build from nothing of the live content, cold and warm', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 14 }), async (ops) => {
        const h = await harness();
        const live = new Map<string, StoredChunk[]>();
        // a warm container that loads every version: it keeps the segments (and their kernels) it has read
        const warm = new IndexCache(base.objects, 2);
        for (const op of ops) {
          const memory = await base.memories.get(h.accountId, h.memoryId);
          if (memory?.indexPrefix) await warm.load(memory);
          const fileId = `f${'file' in op ? op.file : 0}`;
          if (op.kind === 'put') {
            await ingest(h, fileId, op.texts);
            live.set(fileId, chunksOf(fileId, op.texts));
          } else if (op.kind === 'remove' && live.has(fileId)) {
            await remove(h, fileId, op.reindex);
            live.delete(fileId);
          } else if (op.kind === 'merge' && live.size > 0) {
            await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId });
          }
        }
        if ((await current(h).catch(() => undefined))?.memory.excludedFileIds.length) await publishWithout(h, true);
        if (live.size > 0) await expectSameAsFresh(h, live, warm);
      }),
      { numRuns: 25 },
    );
  }, 240_000);

  it('embeds only the changed chunk of a replaced file, reading the segments that hold replaced files', async () => {
    const h = await harness();
    const { deps, embedded } = counted(h);
    const a = ['tide and moon', 'the owl hunts at night', 'rye bread and salt', 'glacier valley', 'river stone'];
    await ingest(h, 'a', a, deps);
    await ingestMany(
      h,
      [
        ['b', ['harbour wind']],
        ['c', ['wind over the river', 'stone wall']],
      ],
      deps,
    );
    await ingest(h, 'd', ['salt marsh'], deps);
    const dSegment = (await current(h)).manifest.segments.at(-1)?.id;
    expect(embedded).toHaveLength(9);
    embedded.length = 0;
    const a2 = a.map((text, i) => (i === 2 ? 'rye bread, salt and butter' : text));
    await ingest(h, 'a', a2, deps); // 1 of 5 chunks changed
    expect(embedded.map((text) => text.split('\n').pop())).toEqual(['rye bread, salt and butter']);
    embedded.length = 0;
    // two replaced files in two segments (one shared with a file that stays), one new chunk each
    const { manifest } = await current(h);
    const read: string[] = [];
    const objects: ObjectStore = Object.assign(Object.create(deps.objects) as ObjectStore, {
      get: (key: string) => (read.push(key), deps.objects.get(key)),
    });
    await ingestMany(
      h,
      [
        ['a', [...a2, 'night owl']],
        ['c', ['wind over the river', 'stone wall', 'moon tide']],
      ],
      { ...deps, objects },
    );
    expect(embedded.map((text) => text.split('\n').pop())).toEqual(['night owl', 'moon tide']);
    const indexesRead = read.filter((key) => key.endsWith('/retrieval.idx')).map((key) => key.split('/').at(-2));
    const holding = manifest.segments.map((entry) => entry.id).filter((id) => id !== dSegment);
    expect(holding).toHaveLength(2);
    expect(indexesRead.sort()).toEqual(holding.sort()); // not d's
    await expectSameAsFresh(
      h,
      new Map([
        ['a', chunksOf('a', [...a2, 'night owl'])],
        ['b', chunksOf('b', ['harbour wind'])],
        ['c', chunksOf('c', ['wind over the river', 'stone wall', 'moon tide'])],
        ['d', chunksOf('d', ['salt marsh'])],
      ]),
    );
  }, 60_000);

  it('embeds only changed chunks over any sequence of edits, removes and merges, and ranks as a build from nothing', async () => {
    const edit = fc.record({
      kind: fc.constant('edit' as const),
      file: fc.integer({ min: 0, max: 3 }),
      at: fc.nat(5),
      text: textArbitrary,
      grow: fc.boolean(),
    });
    const ops = fc.oneof(edit, edit, opArbitrary);
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { minLength: 1, maxLength: 12 }), async (sequence) => {
        const h = await harness();
        const { deps, embedded } = counted(h);
        const live = new Map<string, StoredChunk[]>();
        for (const op of sequence) {
          const fileId = `f${'file' in op ? op.file : 0}`;
          if (op.kind === 'put' || op.kind === 'edit') {
            const texts = op.kind === 'put' ? op.texts : edited(live.get(fileId), op);
            const next = chunksOf(fileId, texts);
            const expected = changedChunks(live, fileId, next);
            embedded.length = 0;
            await ingest(h, fileId, texts, deps);
            expect(embedded).toHaveLength(expected);
            live.set(fileId, next);
          } else if (op.kind === 'remove' && live.has(fileId)) {
            await remove(h, fileId, op.reindex);
            live.delete(fileId);
          } else if (op.kind === 'merge' && live.size > 0) {
            await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId });
          }
        }
        if ((await current(h).catch(() => undefined))?.memory.excludedFileIds.length) await publishWithout(h, true);
        if (live.size > 0) await expectSameAsFresh(h, live);
      }),
      { numRuns: 20 },
    );
  }, 240_000);

  it('writes one new segment per one-file ingestion, of a size that does not grow with the memory', async () => {
    const h = await harness();
    const text = (n: number) => `paragraph ${n} about the tide and the moon over the harbour wall ${n}`;
    const written = async (fileId: string): Promise<{ segment: number; manifest: number; segments: number }> => {
      h.puts.clear();
      await ingest(h, fileId, [text(1), text(2)]);
      const { manifest } = await current(h);
      const newest = manifest.segments[manifest.segments.length - 1]!;
      const keys = [...h.puts.keys()];
      expect(keys.filter((key) => key.includes('/index/s')).every((key) => key.includes(`/${newest.id}/`))).toBe(true);
      const sum = (wanted: (key: string) => boolean) => keys.filter(wanted).reduce((total, key) => total + (h.puts.get(key) ?? 0), 0);
      return {
        segment: sum((key) => key.includes('/index/s')),
        manifest: sum((key) => key.endsWith('manifest.json')),
        segments: manifest.segments.length,
      };
    };
    const first = await written('first');
    for (let i = 0; i < 6; i++)
      await ingest(
        h,
        `bulk${i}`,
        Array.from({ length: 40 }, (_, n) => text(n + i * 40)),
      );
    const later = await written('later');
    expect(later.segments).toBe(8);
    expect(Math.abs(later.segment - first.segment)).toBeLessThan(first.segment * 0.02); // the same two chunks, ids aside
    expect(later.manifest / later.segments).toBeLessThan(150); // the manifest: one short entry per segment
    expect(later.segment + later.manifest).toBeLessThan(first.segment * 2);
  }, 60_000);

  it('purges a removed file from every live segment at the merge its removal asks for', async () => {
    const h = await harness();
    await ingestMany(h, [
      ['keep', ['the owl hunts at night']],
      ['secret', ['the zebracode is 4471 glacier']],
    ]);
    await ingest(h, 'more', ['rye bread and salt']);
    h.sent.length = 0;
    await remove(h, 'secret');
    expect(h.sent).toEqual([{ kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId }]);
    expect(await liveSegmentText(h)).toContain('zebracode'); // tombstoned, not yet purged
    const { texts } = (await loaded(h)).retrieval.chunks;
    expect(Array.from({ length: texts.length }, (_, ordinal) => texts.at(ordinal)).join(' ')).not.toContain('zebracode');
    await mergeMemory(h.deps, h.sent[0] as Extract<WorkMessage, { kind: 'memory.merge' }>);
    expect(await liveSegmentText(h)).not.toContain('zebracode');
    // the purge queues the retirement of the versions before it, which still name the old segments
    const retire = h.sent.find((message) => message.kind === 'index.retire');
    expect(retire).toMatchObject({ accountId: h.accountId, memoryId: h.memoryId, version: (await current(h)).memory.indexVersion });
    await retireBuilds(base.worker, retire as Extract<WorkMessage, { kind: 'index.retire' }>);
    const { memory, manifest, root } = await current(h);
    const folders = new Set((await base.objects.list(root)).map((key) => key.slice(root.length).split('/')[0]));
    expect(folders).toEqual(new Set([memory.indexPrefix!.slice(root.length, -1), ...manifest.segments.map((entry) => entry.id)]));
    await expectSameAsFresh(
      h,
      new Map([
        ['keep', chunksOf('keep', ['the owl hunts at night'])],
        ['more', chunksOf('more', ['rye bread and salt'])],
      ]),
    );
  }, 60_000);

  it('merges a full tier into one segment, leaving nothing due', async () => {
    const h = await harness();
    const live = new Map<string, StoredChunk[]>();
    for (let i = 0; i < 8; i++) {
      h.sent.length = 0;
      await ingest(h, `t${i}`, [`${WORDS[i]} ${WORDS[i + 1]} number ${i}`]);
      live.set(`t${i}`, chunksOf(`t${i}`, [`${WORDS[i]} ${WORDS[i + 1]} number ${i}`]));
    }
    expect(h.sent.map((m) => m.kind)).toEqual(['memory.merge']); // the eighth segment fills tier 0
    expect(await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId })).toBe(1);
    expect((await current(h)).manifest.segments).toHaveLength(1);
    expect(await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId })).toBe(0); // redelivered: nothing due
    await expectSameAsFresh(h, live);
  }, 60_000);

  it('answers a query whose version was collected while it loaded, from the version published since', async () => {
    const h = await harness();
    await ingest(h, 'first', ['the owl hunts at night']);
    const read = (await current(h)).memory;
    const deps = { ...base, indexes: new IndexCache(racingStore(h, read), 2) };
    const asked = { memoryId: h.memoryId, query: 'zebracode glacier', topK: 3, facts: false, assisted: false };
    const answer = await retrieveFromMemory(deps, h.accountId, asked);
    expect(await base.objects.list(read.indexPrefix ?? '-')).toEqual([]); // collected while it loaded
    expect(JSON.stringify(answer.payload)).toContain('the zebracode glacier');
  }, 60_000);

  it('finds entities in a newer version when the one read was collected while it loaded (profiles read the graph the same way)', async () => {
    const h = await harness('graph');
    await ingest(h, 'first', ['Ada Lovelace wrote the first program.']);
    const read = (await current(h)).memory;
    const deps = { ...base, indexes: new IndexCache(racingStore(h, read), 2) };
    const found = await lookUpEntities(deps, h.accountId, h.memoryId, { name: 'Ada Lovelace', limit: 3 });
    expect(await base.objects.list(read.indexPrefix ?? '-')).toEqual([]); // collected while it loaded
    expect(JSON.stringify(found)).toContain('Ada Lovelace');
  }, 60_000);

  it('leaves the published index untouched when a build dies between writing its segment and publishing', async () => {
    const h = await harness();
    await ingest(h, 'a', ['the owl hunts at night']);
    const before = await current(h);
    h.beforeCommit.hook = async () => {
      throw new Error('worker killed');
    };
    await expect(ingest(h, 'b', ['rye bread and salt'])).rejects.toThrow('worker killed');
    const after = await current(h);
    expect(after.memory.indexVersion).toBe(before.memory.indexVersion);
    expect(after.manifest).toEqual(before.manifest);
    await ingest(h, 'c', ['glacier valley']); // the next publish collects the orphaned folders
    const folders = new Set((await base.objects.list(after.root)).map((key) => key.slice(after.root.length).split('/')[0] ?? ''));
    const { manifest, memory } = await current(h);
    const named = new Set([
      memory.indexPrefix!.slice(after.root.length, -1),
      ...manifest.segments.map((entry) => entry.id),
      before.memory.indexPrefix!.slice(after.root.length, -1),
    ]);
    expect([...folders].filter((folder) => !named.has(folder))).toEqual([]);
    await base.links.delete(h.accountId, h.memoryId, 'b');
    await expectSameAsFresh(
      h,
      new Map([
        ['a', chunksOf('a', ['the owl hunts at night'])],
        ['c', chunksOf('c', ['glacier valley'])],
      ]),
    );
  }, 60_000);

  it('survives a merge that dies before publishing: the redelivered message merges again', async () => {
    const h = await harness();
    await ingestMany(h, [
      ['a', ['the owl hunts at night']],
      ['b', ['the zebracode glacier']],
    ]);
    await remove(h, 'b');
    const message = { kind: 'memory.merge' as const, accountId: h.accountId, memoryId: h.memoryId };
    h.beforeCommit.hook = async () => {
      throw new Error('worker killed');
    };
    await expect(mergeMemory(h.deps, message)).rejects.toThrow('worker killed');
    expect(await liveSegmentText(h)).toContain('zebracode');
    expect(await mergeMemory(h.deps, message)).toBe(1);
    expect(await liveSegmentText(h)).not.toContain('zebracode');
    await expectSameAsFresh(h, new Map([['a', chunksOf('a', ['the owl hunts at night'])]]));
  }, 60_000);

  it('retries a merge that loses the publish to an ingestion, on the version that won', async () => {
    const h = await harness();
    const live = new Map<string, StoredChunk[]>();
    await ingestMany(h, [
      ['a', ['the owl hunts at night']],
      ['b', ['the zebracode glacier']],
    ]);
    await remove(h, 'b');
    live.set('a', chunksOf('a', ['the owl hunts at night']));
    // an ingestion publishes between the merge's read and its commit
    h.beforeCommit.hook = async () => {
      await ingest(h, 'c', ['rye bread and salt'], { ...h.deps, memories: base.worker.memories });
      live.set('c', chunksOf('c', ['rye bread and salt']));
    };
    expect(await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId })).toBe(1);
    expect(await liveSegmentText(h)).not.toContain('zebracode');
    await expectSameAsFresh(h, live);
  }, 60_000);

  it('makes an ingestion that loses the publish to a merge build again on the merged version', async () => {
    const h = await harness();
    await ingestMany(h, [
      ['a', ['the owl hunts at night']],
      ['b', ['the zebracode glacier']],
    ]);
    await remove(h, 'b');
    h.beforeCommit.hook = async () => {
      await mergeMemory(
        { ...h.deps, memories: base.worker.memories },
        { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId },
      );
    };
    await ingest(h, 'c', ['rye bread and salt']);
    expect(await liveSegmentText(h)).not.toContain('zebracode');
    await expectSameAsFresh(
      h,
      new Map([
        ['a', chunksOf('a', ['the owl hunts at night'])],
        ['c', chunksOf('c', ['rye bread and salt'])],
      ]),
    );
  }, 60_000);

  it('drops a segment left with no live chunk from the manifest, with no merge to wait for', async () => {
    const h = await harness();
    await ingest(h, 'a', ['the owl hunts at night']);
    await ingest(h, 'gone', ['the zebracode glacier']);
    h.sent.length = 0;
    await remove(h, 'gone');
    expect((await current(h)).manifest.segments).toHaveLength(1);
    // no merge: only the retirement of the versions still naming the dropped segment (docs/backups.md)
    expect(h.sent).toEqual([
      {
        kind: 'index.retire',
        accountId: h.accountId,
        memoryId: h.memoryId,
        version: expect.any(Number),
        prefix: (await current(h)).memory.indexPrefix,
      },
    ]);
    expect(await liveSegmentText(h)).not.toContain('zebracode');
  }, 60_000);

  it('reads a version written before segments, and the next build turns it into one segment', async () => {
    const h = await harness();
    const old = [...chunksOf('a', ['the owl hunts at night']), ...chunksOf('b', ['rye bread and salt'])];
    const embedder = base.worker.indexing.embedder();
    const retrieval = await buildRetrievalIndex(old.map(toRetrievalChunk), embedder ? { embedder } : {});
    const prefix = `gold/${h.accountId}/memories/${h.memoryId}/index/v1-legacy/`;
    await base.objects.put(`${prefix}retrieval.idx`, serializeRetrievalIndex(retrieval));
    await base.objects.put(`${prefix}chunks.json`, encodeChunks(old), 'application/json');
    for (const fileId of ['a', 'b']) await link(h, fileId);
    await base.memories.commitIndexVersion(h.accountId, h.memoryId, {
      expectedVersion: 0,
      changes: { indexVersion: 1, indexPrefix: prefix },
      excludedBuilt: [],
    });
    expect((await loaded(h)).retrieval.chunks.ids).toEqual(['a:0', 'b:0']);
    await ingest(h, 'c', ['glacier valley']);
    const { manifest } = await current(h);
    expect(manifest.segments).toHaveLength(1);
    expect(manifest.segments[0]?.embedder).toBe(embedder?.name ?? null);
    await expectSameAsFresh(
      h,
      new Map([
        ['a', chunksOf('a', ['the owl hunts at night'])],
        ['b', chunksOf('b', ['rye bread and salt'])],
        ['c', chunksOf('c', ['glacier valley'])],
      ]),
    );
    await ingest(h, 'd', ['harbour wind']); // the pre-segment folder is two versions old now: collected
    expect(await base.objects.list(prefix)).toEqual([]);
  }, 60_000);

  it('stores a chunk text once per segment (in retrieval.idx), and reads older files holding it twice', async () => {
    const h = await harness();
    const old = [...chunksOf('a', ['the owl hunts at night', 'tide and moon']), ...chunksOf('b', ['rye bread and salt'])];
    const embedder = base.worker.indexing.embedder();
    const retrieval = await buildRetrievalIndex(old.map(toRetrievalChunk), embedder ? { embedder } : {});
    const prefix = `gold/${h.accountId}/memories/${h.memoryId}/index/v1-legacy/`;
    // written as before compact loading: index format 1, records with their texts
    await base.objects.put(`${prefix}retrieval.idx`, serializeRetrievalIndexV1(retrieval));
    await base.objects.put(`${prefix}chunks.json`, encodeChunks(old), 'application/json');
    for (const fileId of ['a', 'b']) await link(h, fileId);
    await base.memories.commitIndexVersion(h.accountId, h.memoryId, {
      expectedVersion: 0,
      changes: { indexVersion: 1, indexPrefix: prefix },
      excludedBuilt: [],
    });
    const before = await loaded(h);
    expect(before.records?.map((record) => record.text)).toEqual(old.map((chunk) => chunk.text));
    expect(old.map((_, ordinal) => before.retrieval.chunks.texts.at(ordinal))).toEqual(old.map((chunk) => chunk.text));
    await ingest(h, 'c', ['glacier valley']);
    const { manifest, root } = await current(h);
    const records = JSON.parse(
      Buffer.from((await base.objects.get(`${root}${manifest.segments[0]?.id}/chunks.json`)) ?? []).toString('utf8'),
    );
    // format 2 (segment-records.ts): what the index does not hold, here nothing but the count
    expect(records).toEqual({ format: 2, count: 4, extras: [] });
    const after = await loaded(h);
    // the records come without their texts, filled in from the index when a chunk is asked for
    expect(after.records?.map((record) => [record.id, record.title, record.text])).toEqual([
      ['a:0', 'Title a', undefined],
      ['a:1', 'Title a', undefined],
      ['b:0', 'Title b', undefined],
      ['c:0', 'Title c', undefined],
    ]);
    expect(after.chunks.get('c:0')?.text).toBe('glacier valley');
    expect(after.records?.map((record) => record.text)).toEqual([undefined, undefined, undefined, 'glacier valley']);
    await expectSameAsFresh(
      h,
      new Map([
        ['a', chunksOf('a', ['the owl hunts at night', 'tide and moon'])],
        ['b', chunksOf('b', ['rye bread and salt'])],
        ['c', chunksOf('c', ['glacier valley'])],
      ]),
    );
  }, 60_000);

  it('keeps the graph of a graph memory with the version a merge publishes', async () => {
    const h = await harness('graph');
    await ingestMany(h, [
      ['a', ['Marie Curie worked in Paris with Pierre Curie.']],
      ['b', ['Albert Einstein lived in Bern.']],
    ]);
    await ingest(h, 'c', ['Niels Bohr founded an institute in Copenhagen.']);
    await remove(h, 'b');
    const before = await current(h);
    expect(await mergeMemory(h.deps, { kind: 'memory.merge', accountId: h.accountId, memoryId: h.memoryId })).toBe(1);
    const after = await current(h);
    expect(after.memory.indexVersion).toBe(before.memory.indexVersion + 1);
    expect(after.memory.entityCount).toBe(before.memory.entityCount);
    const graph = await new IndexCache(base.objects, 2).loadGraph(after.memory);
    expect(graph?.graph.chunkIds.length).toBeGreaterThan(0);
    expect([...(graph?.chunks.keys() ?? [])].sort()).toEqual(['a:0', 'c:0']);
    expect(await liveSegmentText(h)).not.toContain('Einstein');
  }, 120_000);
});

/** The harness's deps counting the listings of every link of the memory (what a one-file build must not do). */
function countingListings(h: Harness): { deps: IndexDeps; listed: { count: number } } {
  const listed = { count: 0 };
  const links = Object.assign(Object.create(base.worker.links) as IndexDeps['links'], {
    listByMemory: (...args: Parameters<IndexDeps['links']['listByMemory']>) => (listed.count++, base.worker.links.listByMemory(...args)),
  });
  return { deps: { ...h.deps, links }, listed };
}

describe('a build that knows what changed (linked-sources.ts)', () => {
  const owl = (): [string, string[]] => ['a', ['the owl hunts at night']];
  const rye = (): [string, string[]] => ['b', ['rye bread and salt']];
  const live = (...files: Array<[string, string[]]>) => new Map(files.map(([fileId, texts]) => [fileId, chunksOf(fileId, texts)]));

  it('ingests one file looking up its link only, never listing the memory, and counts the files from the manifest', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye(), ['c', ['glacier valley']]]);
    const { deps, listed } = countingListings(h);
    await ingest(h, 'd', ['the moon tide'], deps);
    await ingest(h, 'b', ['rye bread, salt and butter'], deps);
    expect(listed.count).toBe(0);
    const { manifest } = await current(h);
    expect(manifest.segments.map((entry) => entry.sources)).toEqual([2, 1, 1]);
    await expectSameAsFresh(h, live(owl(), ['b', ['rye bread, salt and butter']], ['c', ['glacier valley']], ['d', ['the moon tide']]));
  }, 60_000);

  it('leaves out a file detached since the last build, with no reindex between', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), ['gone', ['the zebracode glacier']], rye()]);
    await remove(h, 'gone', false);
    await ingest(h, 'c', ['glacier valley']);
    expect(await liveSegmentText(h)).toContain('zebracode'); // tombstoned: its merge purges it
    expect((await current(h)).manifest.segments[0]?.purge).toBe(true);
    await expectSameAsFresh(h, live(owl(), rye(), ['c', ['glacier valley']]));
  }, 60_000);

  it('replaces a file ingested again, and an ingestion delivered twice holds it once', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye()]);
    await ingest(h, 'a', ['the owl sleeps by day']);
    await ingest(h, 'a', ['the owl sleeps by day']);
    await expectSameAsFresh(h, live(['a', ['the owl sleeps by day']], rye()));
  }, 60_000);

  it('holds a file removed and added again before any build, as added again', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye()]);
    await remove(h, 'a', false);
    await ingest(h, 'a', ['the owl returns']);
    await expectSameAsFresh(h, live(['a', ['the owl returns']], rye()));
  }, 60_000);

  it('keeps excluded a file removed while its ingestion ran, so the next build (listing nothing) leaves it out', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye()]);
    // the removal excluded the file, the ingestion's build found its link still there and added it
    await base.memories.excludeSources(h.accountId, h.memoryId, [fileSource('a')]);
    h.beforeCommit.hook = () => base.links.delete(h.accountId, h.memoryId, 'a');
    await ingest(h, 'a', ['the owl zebracode']);
    expect((await current(h)).memory.excludedFileIds).toEqual(['a']);
    await ingest(h, 'c', ['glacier valley']);
    expect((await current(h)).memory.excludedFileIds).toEqual([]);
    await expectSameAsFresh(h, live(rye(), ['c', ['glacier valley']]));
  }, 60_000);

  it('leaves out a file whose link went before the ingestion of it looked it up', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye()]);
    await base.memories.excludeSources(h.accountId, h.memoryId, [fileSource('a')]);
    await base.links.delete(h.accountId, h.memoryId, 'a');
    await buildAndPublishIndex(h.deps, h.accountId, h.memoryId, {
      added: new Map([['a', chunksOf('a', ['the owl zebracode'])]]),
      onlyAdded: true,
      changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
    });
    expect(await liveSegmentText(h)).not.toContain('zebracode');
    await expectSameAsFresh(h, live(rye()));
  }, 60_000);

  it('builds again on the version a reindex published first, leaving out the file it removed', async () => {
    const h = await harness();
    await ingestMany(h, [owl(), rye()]);
    h.beforeCommit.hook = () => remove(h, 'b');
    await ingest(h, 'c', ['glacier valley']);
    await expectSameAsFresh(h, live(owl(), ['c', ['glacier valley']]));
  }, 60_000);
});
