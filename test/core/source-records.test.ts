/**
 * The file records a retrieval answer names, kept per account source version (source-record-cache.ts),
 * over memory stores: read once per version, read again after a rename or a delete raised it, never
 * overwritten by a query that read an older version; and through GET /memory/'s use case, a file's new
 * name in `sources` at the next query.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { memoryConfig, memoryDeps } from '../support/memory';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createOrUpdateFile } from '../../functions/core/use-cases/file-sources';
import { deleteFile, uploadFile } from '../../functions/core/use-cases/files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';
import { cachedSourceRecords } from '../../functions/core/stored-index/source-record-cache';

const deps = memoryDeps(memoryConfig({ KMEM_GRAPH_WORD_VECTORS: 'false' }));
let accountId = '';

async function addFile(name: string, text: string, sourceKey: string): Promise<string> {
  const upload = await uploadFile(deps, accountId, { name, contentType: 'text/plain', bytes: Buffer.from(text) });
  return (await createOrUpdateFile(deps, accountId, { name, key: upload.key, fileType: 'text', sourceKey, metadata: [] })).id;
}

/** The file store with its batch reads counted (ids asked for), as its own object: a cache of its own. */
function countingFiles() {
  const reads = { ids: 0 };
  const files = Object.create(deps.files) as typeof deps.files;
  files.getMany = (account, ids) => {
    reads.ids += ids.length;
    return deps.files.getMany(account, ids);
  };
  return { reads, files };
}

beforeAll(async () => {
  accountId = (await createAccount(deps, `source-records-${process.pid}-${Date.now()}`)).account.id;
});

describe('cachedSourceRecords', () => {
  it('reads a record once per source version, again after a rename or delete raised it', async () => {
    const first = await addFile('first.txt', 'Otters hold hands while they sleep.', 'test://first');
    const second = await addFile('second.txt', 'Beavers build dams of branches and mud.', 'test://second');
    const { reads, files } = countingFiles();
    const version = await deps.files.sourceVersion(accountId);
    const names = async (at: number) => [...(await cachedSourceRecords(files, accountId, at, [first, second])).values()].map((r) => r.name);
    expect(await names(version)).toEqual(['first.txt', 'second.txt']);
    expect(reads.ids).toBe(2);
    expect(await names(version)).toEqual(['first.txt', 'second.txt']);
    expect(reads.ids).toBe(2); // kept

    await addFile('first-renamed.txt', 'Otters keep a favourite stone in a pocket of skin.', 'test://first');
    const renamed = await deps.files.sourceVersion(accountId);
    expect(renamed).toBeGreaterThan(version);
    expect(await names(renamed)).toEqual(['first-renamed.txt', 'second.txt']);
    expect(reads.ids).toBe(4);

    await deleteFile(deps, accountId, second);
    const deleted = await deps.files.sourceVersion(accountId);
    expect(deleted).toBeGreaterThan(renamed);
    expect(await names(deleted)).toEqual(['first-renamed.txt']);
    expect(reads.ids).toBe(6);
    expect(await names(deleted)).toEqual(['first-renamed.txt']); // a missing file is kept as missing
    expect(reads.ids).toBe(6);

    // a query that read an older version reads for itself and leaves the newer records kept
    expect(await names(version)).toEqual(['first-renamed.txt']);
    expect(reads.ids).toBe(8);
    expect(await names(deleted)).toEqual(['first-renamed.txt']);
    expect(reads.ids).toBe(8);
  });
});

describe('sources of GET /memory/', () => {
  it('name a file by its new name at the next query, with its records kept between', async () => {
    const id = await addFile('hedgehogs.txt', 'Hedgehogs hibernate in winter in a nest of dry leaves.', 'test://hedgehogs');
    await drainQueue(deps);
    const memory = await createMemory(deps, accountId, { name: 'sources', memoryType: 'vector' });
    await addFiles(deps, accountId, memory.id, [id]);
    await startIngestion(deps, accountId, memory.id);
    await drainQueue(deps);
    const { reads, files } = countingFiles();
    const query = () =>
      retrieveFromMemory({ ...deps, files }, accountId, { memoryId: memory.id, query: 'hedgehogs', topK: 5, facts: true, assisted: false });
    const sourceNames = async () => (await query()).sources.map((source) => source.name);
    expect(await sourceNames()).toEqual(['hedgehogs.txt']);
    const afterFirst = reads.ids;
    expect(await sourceNames()).toEqual(['hedgehogs.txt']);
    expect(reads.ids).toBe(afterFirst); // the second query reads no file record
    // new content under a new name: the index still holds the old text until ingested again, the name is new at once
    await addFile('hedgehogs-2.txt', 'Hedgehogs eat beetles and worms at night.', 'test://hedgehogs');
    expect(await sourceNames()).toEqual(['hedgehogs-2.txt']);
    const facts = (await query()).facts;
    expect(facts.length).toBeGreaterThan(0);
    for (const fact of facts) expect(fact.validFrom).not.toBeNull(); // dated by the file's record
  });
});
