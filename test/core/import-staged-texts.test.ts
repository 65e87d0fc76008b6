/**
 * An import into a memory stages each batch's texts as one object, and the ingestion it starts reads that
 * object instead of each file's transcript, then deletes it. The real worker runs both over in-memory
 * stores; the artefact store is observed on its way (each read passes through to the store).
 */
import { beforeEach, expect, it } from 'vitest';
import { objectKeys } from '../../functions/core/object-keys';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { StagedTextReader, stageTexts } from '../../functions/core/ingest/staged-texts';
import { runWork } from '../../functions/worker/dispatch';
import type { Members } from '../support/archives';
import { runZipImport } from '../support/imports';
import type { WorkMessage } from '../../functions/core/work';
import { drainQueue } from '../support/drain-queue';
import { memoryConfig, memoryDeps } from '../support/memory';

// what is staged and read is the point, not the vectors nor the extraction thread: no word vectors to load
// and no thread to start (seconds of a cold start each)
const deps = memoryDeps(memoryConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false', KMEM_EXTRACT_ISOLATION: 'inline' }));
let accountId = '';
const reads: string[] = [];
const observedObjects = new Proxy(deps.objects, {
  get(target, property) {
    if (property === 'get') return (key: string) => (reads.push(key), target.get(key));
    const value: unknown = Reflect.get(target, property, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
}) as typeof deps.objects;
const observed = { ...deps, worker: { ...deps.worker, objects: observedObjects } };

// an account of each test's own: the tests list the files of one archive name, which each one imports
beforeEach(async () => {
  accountId = (await createAccount(deps, `staged-${process.pid}-${Date.now()}-${Math.random()}`)).account.id;
});

/** Runs an import of `members` as one zip (into the memory, if any); answers the import's id. */
async function importInto(memoryId: string | null, members: Members): Promise<string> {
  return (await runZipImport(deps, observed.worker, accountId, members, memoryId ? { memoryId } : {})).id;
}

/** Runs the queued work in order until a message of `kind`, which it takes off the queue and answers unrun. */
async function workUntil(kind: WorkMessage['kind']): Promise<WorkMessage> {
  for (;;) {
    const [message] = await deps.queue.receive(1, 60);
    if (!message) throw new Error(`no ${kind} was queued`);
    await deps.queue.delete(message.receiptHandle);
    const work = JSON.parse(message.body) as WorkMessage;
    if (work.kind === kind) return work;
    await runWork(deps.worker, work, { attempt: 1, workId: message.messageId });
  }
}

const text = async (key: string | null | undefined) => Buffer.from((await deps.objects.get(key ?? '')) ?? []).toString('utf8');

it('ingests from the staged batch, not from each transcript, and deletes the batch once read', async () => {
  const memory = await createMemory(deps, accountId, { name: 'staged', memoryType: 'vector' });
  const importId = await importInto(memory.id, {
    'otters.txt': 'Sea otters hold hands while they sleep.',
    'owls.txt': 'Barn owls hunt by sound alone.',
    'page.html': '<html><body><p>Axolotls regrow their limbs.</p></body></html>',
  });
  const stagedKey = objectKeys.stagedTexts(accountId, importId, 0);
  const files = await deps.files.listBySourcePrefix(accountId, 'archive:docs.zip/');
  expect(files.map((file) => file.stagedTextKey)).toEqual([stagedKey, stagedKey, stagedKey]);
  expect(JSON.parse(await text(stagedKey)).texts[files[0]?.id ?? '']).toMatchObject({ contentHash: files[0]?.contentHash });

  reads.length = 0;
  await drainQueue(observed);
  expect((await deps.memories.get(accountId, memory.id))?.step).toBe('ready');
  expect(reads.filter((key) => key === stagedKey)).toHaveLength(1);
  for (const file of files) expect(reads).not.toContain(file.silverTranscriptKey);
  const after = await deps.files.getMany(
    accountId,
    files.map((file) => file.id),
  );
  for (const file of after.values()) {
    expect(file.stagedTextKey).toBeNull();
    expect(await text(file.goldChunkKey)).toContain(
      file.name === 'page.html' ? 'Axolotls regrow' : file.name === 'owls.txt' ? 'Barn owls' : 'otters',
    );
  }
  expect(await deps.objects.get(stagedKey)).toBeUndefined();
});

it("reads each file's transcript when its staged batch is gone", async () => {
  const memory = await createMemory(deps, accountId, { name: 'fallback', memoryType: 'vector' });
  const importId = await importInto(memory.id, { 'moss.txt': 'Moss grows on the north side of old oaks.' });
  await deps.objects.delete(objectKeys.stagedTexts(accountId, importId, 0)); // expired, or read by an earlier run
  await drainQueue(observed);
  const [file] = await deps.files.listBySourcePrefix(accountId, 'archive:docs.zip/moss');
  expect((await deps.memories.get(accountId, memory.id))?.step).toBe('ready');
  expect(await text(file?.goldChunkKey)).toContain('north side of old oaks');
});

it('answers a staged text only for the content it was staged for, and keeps batches together', async () => {
  const key = objectKeys.stagedTexts(accountId, 'unit', 0);
  await stageTexts(deps.objects, key, [{ fileId: 'f1', contentHash: 'h1', text: 'first' }]);
  const current = { id: 'f1', contentHash: 'h1', stagedTextKey: key };
  const newer = { ...current, contentHash: 'h2' };
  const reader = new StagedTextReader(deps.objects, [current, newer]);
  expect(await reader.textOf(current)).toBe('first');
  expect(await reader.textOf(newer)).toBeUndefined(); // newer content: its transcript is read
  expect(reader.keys()).toEqual([key]);

  const files = [{ stagedTextKey: 'a' }, { stagedTextKey: null }, { stagedTextKey: 'b' }, { stagedTextKey: 'a' }];
  expect(StagedTextReader.order(files)).toEqual([0, 3, 1, 2]);
});

it('keeps a file changed while its first ingestion runs waiting, and ingests the new text after', async () => {
  const memory = await createMemory(deps, accountId, { name: 'changed-meanwhile', memoryType: 'vector' });
  const importId = await importInto(memory.id, { 'tide.txt': 'High tide comes at dawn on the old pier.' });
  const stagedKey = objectKeys.stagedTexts(accountId, importId, 0);
  const ingest = await workUntil('memory.ingest');
  // the ingestion pauses while it reads the staged batch; the file changes meanwhile (an import without a memory)
  let release = () => {};
  const paused = new Promise<void>((resolve) => (release = resolve));
  let reached = () => {};
  const reading = new Promise<void>((resolve) => (reached = resolve));
  const pausing = new Proxy(deps.objects, {
    get(target, property) {
      if (property === 'get') return async (key: string) => (key === stagedKey ? (reached(), await paused) : undefined, target.get(key));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as typeof deps.objects;
  const run = runWork({ ...deps.worker, objects: pausing }, ingest, { attempt: 1, workId: 'ingest' });
  await reading;
  await importInto(null, { 'tide.txt': 'High tide now comes at noon on the new pier.' });
  release();
  await run;
  const [file] = await deps.files.listBySourcePrefix(accountId, 'archive:docs.zip/tide');
  expect((await deps.links.get(accountId, memory.id, file?.id ?? ''))?.ingestedAt).toBeNull(); // waits for the new text
  await drainQueue(deps);
  expect((await deps.links.get(accountId, memory.id, file?.id ?? ''))?.ingestedAt).not.toBeNull();
  const chunks = await text((await deps.files.get(accountId, file?.id ?? ''))?.goldChunkKey);
  expect(chunks).toContain('at noon on the new pier');
  expect(chunks).not.toContain('at dawn');
});
