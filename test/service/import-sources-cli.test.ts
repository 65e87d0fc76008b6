/**
 * An account's import sources through the operator command against a running runtime: the account may
 * start an S3 import of a prefix the command gave it (within the stage's KMEM_IMPORT_BUCKETS) and of
 * nothing else; the command with no pair takes them all away; a malformed pair or the artefact bucket is
 * refused with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Runtime } from '../../functions/local/runtime';
import { kmemAccounts } from '../support/kmem-cli';

const KEY = 'kmem_bootstrap_key_for_import_sources_test';
const dataDir = mkdtempSync(join(tmpdir(), 'kmem-import-sources-'));
let runtime: Runtime;

const kmem = (...args: string[]) => kmemAccounts(dataDir, ...args);

const startImport = async (bucket: string, prefix: string) => {
  const answer = await fetch(`${runtime.url}/files/import`, {
    method: 'POST',
    headers: { 'X-API-Key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ s3: { bucket, prefix } }),
  });
  return { status: answer.status, body: (await answer.json()) as { error?: string } };
};

beforeAll(async () => {
  const { startRuntime } = await import('../../functions/local/runtime');
  runtime = await startRuntime({
    settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_API_KEY: KEY, KMEM_IMPORT_BUCKETS: 'corp-docs,other-docs' },
  });
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('sets, replaces and clears the pairs an account imports from; refuses a bad pair and the artefact bucket', async () => {
  expect((await startImport('corp-docs', 'team-a/')).status).toBe(400); // none by default

  const set = await kmem('import-sources', 'default', 'corp-docs/team-a/', 'other-docs');
  expect(set).toMatchObject({ code: 0, stdout: ['corp-docs/team-a/', 'other-docs'] });
  expect((await startImport('corp-docs', 'team-a/')).status).toBe(200);
  expect((await startImport('corp-docs', 'team-a/2026/')).status).toBe(200);
  expect((await startImport('other-docs', '')).status).toBe(200);
  const outside = await startImport('corp-docs', 'team-b/');
  expect(outside).toMatchObject({ status: 400 });
  expect(outside.body.error).toMatch(/^s3\.prefix: 'corp-docs\/team-b\/' is not under one of the account's import sources/);

  const cleared = await kmem('import-sources', 'default');
  expect(cleared).toMatchObject({ code: 0, stdout: [] });
  expect(cleared.stderr).toContain("'default' may import from no bucket");
  expect((await startImport('corp-docs', 'team-a/')).status).toBe(400);

  const bad = await kmem('import-sources', 'default', 'Corp Docs/x');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("importSources: 'Corp Docs/x' does not start with an S3 bucket name");
  const artefacts = await kmem('import-sources', 'default', 'kmem-artefacts/bronze/');
  expect(artefacts.code).toBe(1);
  expect(artefacts.stderr).toContain("'kmem-artefacts' is the service's own artefact bucket");
}, 120_000);
