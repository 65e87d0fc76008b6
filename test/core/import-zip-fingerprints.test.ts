/**
 * A zip re-import decompresses only the members whose recorded CRC-32 or size moved: the worker runs the
 * import through the real reader over the in-memory artefact store, and the members it loads are observed
 * on their way (each load passes through to the real reader).
 */
import { expect, it } from 'vitest';
import { SourceImportReader } from '../../functions/adapters/content/import-reader';
import type { ImportReader } from '../../functions/core/ingest/ports';
import { createAccount } from '../../functions/core/use-cases/accounts';
import type { Members } from '../support/archives';
import { runZipImport } from '../support/imports';
import { memoryDeps } from '../support/memory';

const deps = memoryDeps();

const loads: string[] = [];
const real = new SourceImportReader(deps.objects, deps.bucket, deps.config.imports);
const observed: ImportReader = {
  survey: (source, unchanged) => real.survey(source, unchanged),
  async *members(source, from) {
    for await (const member of real.members(source, from)) yield { ...member, load: () => (loads.push(member.path), member.load()) };
  },
};
const worker = { ...deps.worker, importReader: observed };
const importZip = (accountId: string, members: Members) => runZipImport(deps, worker, accountId, members);

it('decompresses only the changed member on a re-import, and counts the rest unchanged', async () => {
  const accountId = (await createAccount(deps, `zipfp-${process.pid}-${Date.now()}`)).account.id;
  const first = {
    'a.txt': 'Hedgehogs hibernate through the winter.',
    'b.txt': 'Swifts sleep while flying.',
    'c.txt': 'Moles dig at dawn.',
  };
  expect(await importZip(accountId, first)).toMatchObject({ state: 'completed', created: 3 });
  expect(loads.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);

  loads.length = 0;
  // the same size, other bytes: the CRC-32 tells them apart
  const second = { ...first, 'b.txt': 'Swifts sweep while flying.' };
  expect(second['b.txt'].length).toBe(first['b.txt'].length);
  expect(await importZip(accountId, second)).toMatchObject({ state: 'completed', created: 0, updated: 1, unchanged: 2 });
  expect(loads).toEqual(['b.txt']);
  const files = await deps.files.listBySourcePrefix(accountId, 'archive:docs.zip/');
  const swifts = files.find((file) => file.name === 'b.txt');
  expect(Buffer.from((await deps.objects.get(swifts?.silverTranscriptKey ?? '')) ?? []).toString('utf8')).toContain('sweep while');
  expect(swifts?.validators?.etag).toMatch(/^zip-crc32:[0-9a-f]{8}:26$/);
});
