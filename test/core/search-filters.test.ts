/**
 * Search filters through the use cases over memory stores: each condition of `filter` alone and combined
 * (with after/before), on a vector and a graph memory holding files and a conversation, and on message
 * search; a filter that keeps few chunks still fills topK; a change of a file's metadata counts at the
 * next query with nothing processed, embedded or published again; another account's file ids find nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { memoryConfig, memoryDeps } from '../support/memory';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { addSessions } from '../../functions/core/use-cases/conversations';
import { createOrUpdateFile, setFileMetadata } from '../../functions/core/use-cases/file-sources';
import { getFile, uploadFile } from '../../functions/core/use-cases/files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { createMessage } from '../../functions/core/use-cases/messages';
import { searchMessages } from '../../functions/core/use-cases/message-search';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';
import { createSession } from '../../functions/core/use-cases/sessions';
import type { FileType, MetadataEntry } from '../../functions/core/model';
import type { SearchFilter } from '../../functions/core/stored-index/search-filter';

const deps = memoryDeps(memoryConfig({ KMEM_GRAPH_WORD_VECTORS: 'false' }));
const drain = () => drainQueue(deps);

interface FileSpec {
  name: string;
  text: string;
  fileType: FileType;
  sourceKey?: string;
  metadata: MetadataEntry[];
}

const FILES: FileSpec[] = [
  {
    name: 'de-manual.txt',
    text: 'Hedgehog care manual. Hedgehogs hibernate in winter and need a dry nest of leaves.',
    fileType: 'text',
    sourceKey: 's3://docs/manuals/de-manual.txt',
    metadata: [
      { key: 'lang', value: 'de' },
      { key: 'team', value: 'manuals' },
    ],
  },
  {
    name: 'en-manual.txt',
    text: 'Hedgehog feeding guide. Hedgehogs eat beetles, worms and caterpillars at night.',
    fileType: 'document',
    sourceKey: 's3://docs/manuals/en-manual.txt',
    metadata: [
      { key: 'lang', value: 'en' },
      { key: 'team', value: 'manuals' },
    ],
  },
  {
    name: 'notes.txt',
    text: 'Field notes on hedgehogs. Hedgehogs roam two kilometres a night in search of food.',
    fileType: 'text',
    metadata: [{ key: 'lang', value: 'en' }],
  },
];

let accountId = '';
let otherAccountId = '';
const fileIds: Record<string, string> = {};
let sessionId = '';
let otherSessionId = '';
const memories: Record<'vector' | 'graph', string> = { vector: '', graph: '' };
let otherMemoryId = '';

const QUERY = 'hedgehogs';

async function addFile(account: string, spec: FileSpec): Promise<string> {
  const upload = await uploadFile(deps, account, { name: spec.name, contentType: 'text/plain', bytes: Buffer.from(spec.text) });
  const { name, fileType, sourceKey, metadata } = spec;
  return (await createOrUpdateFile(deps, account, { name, key: upload.key, fileType, sourceKey, metadata })).id;
}

beforeAll(async () => {
  accountId = (await createAccount(deps, `filters-${process.pid}-${Date.now()}`)).account.id;
  otherAccountId = (await createAccount(deps, `filters-other-${process.pid}-${Date.now()}`)).account.id;
  for (const spec of FILES) fileIds[spec.name] = await addFile(accountId, spec);
  const session = await createSession(deps, accountId, { customerUserId: 'ada', metadata: [{ key: 'lang', value: 'de' }] });
  const other = await createSession(deps, accountId, { customerUserId: 'bob', metadata: [{ key: 'lang', value: 'fr' }] });
  sessionId = session.id;
  otherSessionId = other.id;
  const say = (id: string, role: 'user' | 'assistant', content: string, customerUserId: string, createdAt: string) =>
    createMessage(deps, accountId, { sessionId: id, role, content, customerUserId, createdAt });
  await say(sessionId, 'user', 'My hedgehogs will not eat their food.', 'ada', '2026-01-10T10:00:00Z');
  await say(sessionId, 'assistant', 'Hedgehogs often eat less before they hibernate.', 'ada', '2026-01-10T10:01:00Z');
  await say(otherSessionId, 'user', 'Are hedgehogs good pets for children?', 'bob', '2026-03-01T09:00:00Z');
  await drain();
  for (const memoryType of ['vector', 'graph'] as const) {
    const settings = memoryType === 'graph' ? { ontology: 'culture' as const, factExtraction: true } : {};
    const memory = await createMemory(deps, accountId, { name: `filters-${memoryType}`, memoryType, ...settings });
    memories[memoryType] = memory.id;
    await addFiles(deps, accountId, memory.id, Object.values(fileIds));
    await addSessions(deps, accountId, memory.id, [sessionId, otherSessionId]);
    await startIngestion(deps, accountId, memory.id);
  }
  const foreign = await addFile(otherAccountId, { ...FILES[0]!, sourceKey: undefined });
  await drain();
  otherMemoryId = (await createMemory(deps, otherAccountId, { name: 'other', memoryType: 'vector' })).id;
  await addFiles(deps, otherAccountId, otherMemoryId, [foreign]);
  await startIngestion(deps, otherAccountId, otherMemoryId);
  await drain();
  for (const id of Object.values(memories)) expect((await deps.memories.get(accountId, id))?.step).toBe('ready');
}, 120_000);

const search = (memoryType: 'vector' | 'graph', filter?: SearchFilter, window: { after?: string; before?: string } = {}) =>
  retrieveFromMemory(deps, accountId, {
    memoryId: memories[memoryType],
    query: QUERY,
    topK: 20,
    facts: true,
    assisted: false,
    filter,
    ...window,
  });

/** The sources a result names (files by name, sessions as `session:<which>`). */
async function sourcesOf(memoryType: 'vector' | 'graph', filter?: SearchFilter, window = {}): Promise<string[]> {
  const result = await search(memoryType, filter, window);
  const names = new Map<string, string>([
    ...Object.entries(fileIds).map(([name, id]): [string, string] => [id, name]),
    [sessionId, 'session:ada'],
    [otherSessionId, 'session:bob'],
  ]);
  for (const passage of result.payload) expect(result.sources.map((s) => s.id)).toContain(passage.sourceId);
  return [...new Set(result.sources.map((source) => names.get(source.id) ?? `unknown ${source.id}`))].sort();
}

describe.each(['vector', 'graph'] as const)('filters on a %s memory', (memoryType) => {
  it('finds every source without a filter', async () => {
    expect(await sourcesOf(memoryType)).toEqual(['de-manual.txt', 'en-manual.txt', 'notes.txt', 'session:ada', 'session:bob']);
  });

  it('holds each condition alone', async () => {
    expect(await sourcesOf(memoryType, { fileIds: [fileIds['notes.txt']!] })).toEqual(['notes.txt']);
    expect(await sourcesOf(memoryType, { fileTypes: ['document'] })).toEqual(['en-manual.txt']);
    expect(await sourcesOf(memoryType, { sessionIds: [otherSessionId] })).toEqual(['session:bob']);
    expect(await sourcesOf(memoryType, { customerUserIds: ['ada'] })).toEqual(['session:ada']);
    const assistant = await search(memoryType, { roles: ['assistant'] });
    expect(assistant.payload.map((p) => p.content)).toEqual(['Hedgehogs often eat less before they hibernate.']);
    expect(await sourcesOf(memoryType, { sourceKeyPrefix: 's3://docs/manuals/' })).toEqual(['de-manual.txt', 'en-manual.txt']);
    expect(await sourcesOf(memoryType, { metadata: { lang: ['de'] } })).toEqual(['de-manual.txt', 'session:ada']);
    expect(await sourcesOf(memoryType, { metadata: { lang: ['en', 'fr'] } })).toEqual(['en-manual.txt', 'notes.txt', 'session:bob']);
  });

  it('holds conditions combined, and with after/before', async () => {
    expect(await sourcesOf(memoryType, { metadata: { lang: ['en'], team: ['manuals'] } })).toEqual(['en-manual.txt']);
    expect(await sourcesOf(memoryType, { fileTypes: ['text'], metadata: { lang: ['en'] } })).toEqual(['notes.txt']);
    expect(await sourcesOf(memoryType, { fileIds: [fileIds['notes.txt']!], sessionIds: [sessionId] })).toEqual([]);
    expect(await sourcesOf(memoryType, { roles: ['user'] }, { after: '2026-02-01T00:00:00Z' })).toEqual(['session:bob']);
    expect(await sourcesOf(memoryType, { customerUserIds: ['ada', 'bob'] }, { before: '2026-02-01T00:00:00Z' })).toEqual(['session:ada']);
  });

  it('gives facts of allowed chunks only', async () => {
    const all = await search(memoryType);
    const manuals = await search(memoryType, { fileIds: [fileIds['de-manual.txt']!] });
    for (const fact of manuals.facts) expect(fact.content.toLowerCase()).not.toMatch(/beetles|kilometres|children|pets/);
    expect(all.payload.length).toBeGreaterThan(manuals.payload.length);
  });
});

describe('a change of metadata', () => {
  it('counts at the next query, with nothing processed, embedded or published again', async () => {
    // files and a memory of its own: the filter tests read the shared files' metadata, which this test changes
    const own = FILES.map((spec) => ({ ...spec, sourceKey: spec.sourceKey?.replace('s3://docs/', 's3://docs/metadata-change/') }));
    const names = new Map<string, string>();
    for (const spec of own) names.set(await addFile(accountId, spec), spec.name);
    const memory = await createMemory(deps, accountId, { name: 'metadata-change', memoryType: 'vector' });
    await addFiles(deps, accountId, memory.id, [...names.keys()]);
    await startIngestion(deps, accountId, memory.id);
    await drain();
    const sourcesWith = async (metadata: Record<string, string[]>): Promise<string[]> => {
      const query = { memoryId: memory.id, query: QUERY, topK: 20, facts: true, assisted: false, filter: { metadata } };
      const result = await retrieveFromMemory(deps, accountId, query);
      return [...new Set(result.sources.map((source) => names.get(source.id) ?? `unknown ${source.id}`))].sort();
    };
    const before = await deps.memories.get(accountId, memory.id);
    expect(before?.step).toBe('ready');
    expect(await sourcesWith({ reviewed: ['yes'] })).toEqual([]);
    const notes = [...names].find(([, name]) => name === 'notes.txt')?.[0] ?? '';
    await setFileMetadata(deps, accountId, notes, [{ key: 'reviewed', value: 'yes' }]);
    expect((await getFile(deps, accountId, notes)).file.metadata).toEqual([{ key: 'reviewed', value: 'yes' }]);
    expect(await deps.queue.depth()).toMatchObject({ visible: 0, delayed: 0, inFlight: 0 });
    expect(await sourcesWith({ reviewed: ['yes'] })).toEqual(['notes.txt']);
    // an upsert with the same content replaces the metadata alone
    const spec = own.find((file) => file.name === 'de-manual.txt')!;
    await addFile(accountId, { ...spec, metadata: [{ key: 'reviewed', value: 'yes' }] });
    expect(await deps.queue.depth()).toMatchObject({ visible: 0, delayed: 0, inFlight: 0 });
    expect(await sourcesWith({ reviewed: ['yes'] })).toEqual(['de-manual.txt', 'notes.txt']);
    expect(await sourcesWith({ team: ['manuals'] })).toEqual(['en-manual.txt']);
    const after = await deps.memories.get(accountId, memory.id);
    expect(after?.indexVersion).toBe(before?.indexVersion);
    expect(after?.currentJobId).toBe(before?.currentJobId);
  });
});

/** The deps with the file and session reads retrieval makes counted: records asked for, and version reads. */
function countingDeps() {
  const reads = { fileRecords: 0, sessionRecords: 0, versions: 0 };
  const files = Object.create(deps.files) as typeof deps.files;
  files.getMany = (account, ids) => {
    reads.fileRecords += ids.length;
    return deps.files.getMany(account, ids);
  };
  files.sourceVersion = (account) => {
    reads.versions += 1;
    return deps.files.sourceVersion(account);
  };
  const sessions = Object.create(deps.sessions) as typeof deps.sessions;
  sessions.get = (account, id) => {
    reads.sessionRecords += 1;
    return deps.sessions.get(account, id);
  };
  return { reads, counted: { ...deps, files, sessions } };
}

describe('resolved sources kept warm', () => {
  it('reads O(1) items per filtered query after warm-up, and still sees a metadata change at the next query', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const text = `Hedgehog record ${i}: a hedgehog numbered ${i * 13} was seen near hedge ${i}.`;
      ids.push(
        await addFile(accountId, { name: `seen-${i}.txt`, text, fileType: 'text', metadata: [{ key: 'seen', value: `${i % 10}` }] }),
      );
    }
    await drain();
    const memory = await createMemory(deps, accountId, { name: 'warm', memoryType: 'vector' });
    await addFiles(deps, accountId, memory.id, ids);
    await startIngestion(deps, accountId, memory.id);
    await drain();
    const { reads, counted } = countingDeps();
    const query = (filter: SearchFilter) =>
      retrieveFromMemory(counted, accountId, { memoryId: memory.id, query: QUERY, topK: 5, facts: false, assisted: false, filter });
    const filter = { metadata: { seen: ['0'] } };
    const warm = await query(filter);
    expect(reads.fileRecords).toBeGreaterThanOrEqual(40); // the warm-up reads every file of the index
    expect(new Set(warm.sources.map((source) => source.id))).toEqual(new Set([ids[0], ids[10], ids[20], ids[30]]));
    for (let round = 0; round < 3; round++) {
      Object.assign(reads, { fileRecords: 0, sessionRecords: 0, versions: 0 });
      const again = await query({ metadata: { seen: ['0'] } }); // an equal filter, a new object
      expect(again.sources.map((source) => source.id).sort()).toEqual(warm.sources.map((source) => source.id).sort());
      // one version read and no record: the sources' records are kept under that version too (source-record-cache.ts)
      expect(reads).toEqual({ fileRecords: 0, sessionRecords: 0, versions: 1 });
    }
    // with the cache warm, a change of metadata counts at the next query
    await setFileMetadata(deps, accountId, ids[5]!, [{ key: 'seen', value: '0' }]);
    const changed = await query(filter);
    expect(changed.sources.map((source) => source.id)).toContain(ids[5]);
    await setFileMetadata(deps, accountId, ids[5]!, [{ key: 'seen', value: 'gone' }]);
    expect((await query(filter)).sources.map((source) => source.id)).not.toContain(ids[5]);
    // as does any write of a file's type through the store, with a `fileTypes` filter warm
    expect((await query({ fileTypes: ['document'] })).sources).toEqual([]);
    await deps.files.update(accountId, ids[7]!, { fileType: 'document' });
    expect((await query({ fileTypes: ['document'] })).sources.map((source) => source.id)).toEqual([ids[7]]);
  }, 120_000);
});

describe('across accounts', () => {
  it("finds nothing by another account's file ids, nor by metadata its files hold", async () => {
    const foreignIds = [fileIds['de-manual.txt']!, fileIds['notes.txt']!];
    const theirs = (filter: SearchFilter) =>
      retrieveFromMemory(deps, otherAccountId, { memoryId: otherMemoryId, query: QUERY, topK: 5, facts: true, assisted: false, filter });
    expect((await theirs({})).payload.length).toBeGreaterThan(0);
    expect(await theirs({ fileIds: foreignIds })).toEqual({ payload: [], facts: [], sources: [] });
    expect(await theirs({ metadata: { reviewed: ['yes'] } })).toEqual({ payload: [], facts: [], sources: [] });
  });
});

describe('message search filters', () => {
  const find = async (filter: SearchFilter, window: { after?: string; before?: string } = {}) =>
    (await searchMessages(deps, accountId, { query: QUERY, topK: 10, filter, ...window })).map((hit) => hit.message.content).sort();

  it('holds each condition alone and combined', async () => {
    expect(await find({})).toHaveLength(3);
    expect(await find({ sessionIds: [otherSessionId] })).toEqual(['Are hedgehogs good pets for children?']);
    expect(await find({ customerUserIds: ['ada'] })).toHaveLength(2);
    expect(await find({ roles: ['assistant'] })).toEqual(['Hedgehogs often eat less before they hibernate.']);
    expect(await find({ metadata: { lang: ['de'] } })).toHaveLength(2);
    expect(await find({ metadata: { lang: ['fr'] }, roles: ['user'] })).toEqual(['Are hedgehogs good pets for children?']);
    expect(await find({ customerUserIds: ['ada'], roles: ['user'] }, { after: '2026-01-10T10:00:30Z' })).toEqual([]);
  });

  it('finds no message by file conditions (messages come from no file)', async () => {
    expect(await find({ fileIds: [fileIds['notes.txt']!] })).toEqual([]);
    expect(await find({ fileTypes: ['text'] })).toEqual([]);
    expect(await find({ sourceKeyPrefix: 's3://' })).toEqual([]);
  });
});

describe('a filter keeping few chunks', () => {
  it('still answers topK passages', async () => {
    const sentences = (topic: string, count: number) =>
      Array.from({ length: count }, (_, i) => `Paragraph ${i} about ${topic}: hedgehogs and ${topic} number ${i} are noted here.`).join(
        '\n\n',
      );
    const big = await addFile(accountId, { name: 'big.txt', text: sentences('gardens', 400), fileType: 'text', metadata: [] });
    // ten one-chunk files of distinct words (no two merge or read as duplicates)
    const PLACES = ['lighthouse', 'harbour', 'glacier', 'desert', 'canyon', 'meadow', 'volcano', 'marsh', 'orchard', 'quarry'];
    const small: string[] = [];
    for (const [i, place] of PLACES.entries()) {
      const text = `A ${place} ${i} once sheltered a hedgehog called ${place.toUpperCase()}-${i * 7} through a ${place} storm.`;
      small.push(await addFile(accountId, { name: `${place}.txt`, text, fileType: 'text', metadata: [{ key: 'keep', value: 'yes' }] }));
    }
    await drain();
    const memory = await createMemory(deps, accountId, { name: 'few', memoryType: 'vector', chunkSize: 100 });
    await addFiles(deps, accountId, memory.id, [big, ...small]);
    await startIngestion(deps, accountId, memory.id);
    await drain();
    const ready = await deps.memories.get(accountId, memory.id);
    expect(ready?.chunkCount).toBeGreaterThan(200); // the ten allowed chunks are under 5%
    for (const filter of [{ fileIds: small }, { metadata: { keep: ['yes'] } }] satisfies SearchFilter[]) {
      const result = await retrieveFromMemory(deps, accountId, {
        memoryId: memory.id,
        query: QUERY,
        topK: 8,
        facts: false,
        assisted: false,
        filter,
      });
      expect(result.payload).toHaveLength(8);
      for (const source of result.sources) expect(small).toContain(source.id);
    }
  }, 120_000);
});
