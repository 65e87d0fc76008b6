/**
 * A plain-text member's bytes are its text: the import stores them once, one object (under the content's
 * own bronze key) that is both the file's raw bytes and its transcript. A member whose text differs keeps
 * two objects. The one object follows the file through a changed member and a prune. The worker runs each
 * import over in-memory stores (each held to its adapter's contract: test/contract/stores); the artefact
 * store's batched deletes are observed on their way (each passes through to the store).
 */
import { expect, it } from 'vitest';
import type { MemoryObjectStore } from '../../functions/adapters/memory/object-store';
import { supersededText } from '../../functions/core/ingest/process-file';
import { objectKeys } from '../../functions/core/object-keys';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createOrUpdateFile } from '../../functions/core/use-cases/file-sources';
import { getFile, uploadFile } from '../../functions/core/use-cases/files';
import type { Members } from '../support/archives';
import { drainQueue } from '../support/drain-queue';
import { runZipImport } from '../support/imports';
import { memoryDeps } from '../support/memory';

const deps = memoryDeps();

const deleted: string[] = [];
const objects: MemoryObjectStore = Object.create(deps.objects, {
  deleteMany: { value: (keys: readonly string[]) => (deleted.push(...keys), deps.objects.deleteMany(keys)) },
});
const worker = { ...deps.worker, objects };
const importZip = (accountId: string, members: Members, prune = false) => runZipImport(deps, worker, accountId, members, { prune });

async function fileNamed(accountId: string, name: string) {
  const file = (await deps.files.listBySourcePrefix(accountId, 'archive:docs.zip/')).find((f) => f.name === name);
  if (!file?.bronzeKey || !file.silverTranscriptKey) throw new Error(`no ready file '${name}'`);
  return { ...file, bronzeKey: file.bronzeKey, silverTranscriptKey: file.silverTranscriptKey };
}

const read = async (key: string) => {
  const bytes = await deps.objects.get(key);
  return bytes && Buffer.from(bytes).toString('utf8');
};

it('stores a plain-text member once, as its bytes and its text, and two objects when the text differs', async () => {
  const accountId = (await createAccount(deps, `plain-${process.pid}-${Date.now()}`)).account.id;
  const page = '<html><body><p>Swifts sleep while flying.</p></body></html>';
  const padded = 'Moles dig at dawn.\n';
  const crlf = 'Otters hold hands.\r\nThey sleep afloat.';
  const first = await importZip(accountId, {
    'notes.txt': 'Hedgehogs hibernate.',
    'page.html': page,
    'padded.txt': padded,
    'crlf.txt': crlf,
  });
  expect(first).toMatchObject({ state: 'completed', created: 4, failed: 0 });

  const notes = await fileNamed(accountId, 'notes.txt');
  expect(notes.bronzeKey).toBe(objectKeys.imported(accountId, notes.id, notes.contentHash ?? '', 'original.txt'));
  expect(notes.silverTranscriptKey).toBe(notes.bronzeKey);
  expect(await read(notes.bronzeKey)).toBe('Hedgehogs hibernate.');
  expect((await deps.objects.head(notes.bronzeKey))?.contentType).toMatch(/^text\/plain/);
  expect(await deps.objects.list(objectKeys.fileSilverPrefix(accountId, notes.id))).toEqual([]);
  // a final newline is still the same text: one object, read back trimmed
  const paddedFile = await fileNamed(accountId, 'padded.txt');
  expect(paddedFile.silverTranscriptKey).toBe(paddedFile.bronzeKey);
  expect(await read(paddedFile.bronzeKey)).toBe(padded);
  expect((await getFile(deps, accountId, paddedFile.id)).content).toBe('Moles dig at dawn.');

  for (const [name, bytes, text] of [
    ['page.html', page, 'Swifts sleep while flying.'],
    ['crlf.txt', crlf, 'Otters hold hands.\nThey sleep afloat.'],
  ] as const) {
    const file = await fileNamed(accountId, name);
    expect(file.silverTranscriptKey).not.toBe(file.bronzeKey);
    expect(await read(file.bronzeKey)).toBe(bytes);
    expect(await read(file.silverTranscriptKey)).toBe(text);
  }
});

it('gives a changed plain-text member a new object, deletes the old one, and deletes the one object with a prune', async () => {
  const accountId = (await createAccount(deps, `plain-${process.pid}-${Date.now()}`)).account.id;
  const other = { 'other.txt': 'Swifts sleep while flying.' };
  expect(await importZip(accountId, { 'notes.txt': 'Hedgehogs hibernate.', ...other })).toMatchObject({ created: 2 });
  const before = await fileNamed(accountId, 'notes.txt');

  deleted.length = 0;
  const changed = await importZip(accountId, { 'notes.txt': 'Hedgehogs hibernate from November to March.', ...other });
  expect(changed).toMatchObject({ state: 'completed', created: 0, updated: 1, unchanged: 1, failed: 0 });
  const after = await fileNamed(accountId, 'notes.txt');
  expect(after.id).toBe(before.id);
  expect(after.bronzeKey).not.toBe(before.bronzeKey);
  expect(after.silverTranscriptKey).toBe(after.bronzeKey);
  expect(await deps.objects.list(objectKeys.fetchedPrefix(accountId, after.id))).toEqual([after.bronzeKey]);
  expect(await deps.objects.get(before.bronzeKey)).toBeUndefined();
  expect(deleted).toEqual([before.bronzeKey]); // the one object, deleted once
  expect((await getFile(deps, accountId, after.id)).content).toBe('Hedgehogs hibernate from November to March.');

  deleted.length = 0;
  const pruned = await importZip(accountId, other, true);
  expect(pruned).toMatchObject({ state: 'completed', deleted: 1, unchanged: 1, failed: 0, errors: [] });
  expect(await deps.files.get(accountId, after.id)).toBeUndefined();
  expect(deleted).toEqual([after.bronzeKey]);
  expect(await deps.objects.list(objectKeys.fetchedPrefix(accountId, after.id))).toEqual([]);
  expect(await deps.objects.list(objectKeys.fileSilverPrefix(accountId, after.id))).toEqual([]);
});

it('keeps the previous text of a plain-text member whose new content fails, until a new text replaces it', async () => {
  const accountId = (await createAccount(deps, `plain-${process.pid}-${Date.now()}`)).account.id;
  await importZip(accountId, { 'notes.txt': 'Hedgehogs hibernate.' });
  const before = await fileNamed(accountId, 'notes.txt');

  expect(await importZip(accountId, { 'notes.txt': '  \n' })).toMatchObject({ state: 'completed', updated: 0, failed: 1 });
  const failed = await fileNamed(accountId, 'notes.txt');
  expect(failed).toMatchObject({ state: 'failed', silverTranscriptKey: before.bronzeKey });
  expect((await getFile(deps, accountId, before.id)).content).toBe('Hedgehogs hibernate.');

  expect(await importZip(accountId, { 'notes.txt': 'Hedgehogs wake in spring.' })).toMatchObject({ updated: 1, failed: 0 });
  const after = await fileNamed(accountId, 'notes.txt');
  expect(after).toMatchObject({ state: 'ready', silverTranscriptKey: after.bronzeKey });
  expect(await deps.objects.list(objectKeys.fetchedPrefix(accountId, after.id))).toEqual([after.bronzeKey]);
});

it('keeps the text of an imported plain-text file readable while files/create gives it new content', async () => {
  const accountId = (await createAccount(deps, `plain-${process.pid}-${Date.now()}`)).account.id;
  await importZip(accountId, { 'notes.txt': 'Hedgehogs hibernate.' });
  const before = await fileNamed(accountId, 'notes.txt');
  const bytes = Buffer.from('Hedgehogs wake in spring.');
  const upload = await uploadFile(deps, accountId, { name: 'notes.txt', contentType: 'text/plain', bytes });
  const sourceKey = before.sourceKey ?? '';
  expect(await createOrUpdateFile(deps, accountId, { name: 'notes.txt', fileType: 'text', key: upload.key, sourceKey })).toMatchObject({
    id: before.id,
    state: 'pending',
  });
  expect((await getFile(deps, accountId, before.id)).content).toBe('Hedgehogs hibernate.'); // until the new text replaces it
  await drainQueue(deps);
  expect((await getFile(deps, accountId, before.id)).content).toBe('Hedgehogs wake in spring.');
  expect(await deps.objects.list(objectKeys.fetchedPrefix(accountId, before.id))).toEqual([]);
});

it('never counts as superseded the text object that is now the raw bytes', () => {
  // an imported plain-text file (one object, its bronze and its transcript) processed again: its text moves
  // to a transcript key, its bytes stay where they are
  const shared = 'bronze/acct/files/f/0123456789abcdef/original.txt';
  const after = { bronzeKey: shared, silverTranscriptKey: 'silver/acct/f/0123456789abcdef/transcript.txt', silverAudioKey: null };
  expect(supersededText({ silverTranscriptKey: shared, silverAudioKey: null }, after)).toEqual([]);
  expect(supersededText({ silverTranscriptKey: 'silver/acct/f/old/transcript.txt', silverAudioKey: null }, after)).toEqual([
    'silver/acct/f/old/transcript.txt',
  ]);
});
