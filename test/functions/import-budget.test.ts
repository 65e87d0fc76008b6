/**
 * Bulk import pays for extraction as files/create does (real stores, the worker's own import): an account
 * whose budget is used up cannot start an import, and a member extracted once the budget is gone is not
 * extracted at all (it fails with the budget's reason); what is extracted is charged.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentExtractor } from '../../functions/core/ingest/ports';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { call, upload } from '../support/api';
import { makeZip } from '../support/archives';
import { runArchiveImport } from '../support/imports';
import { testConfig, testDeps } from '../support/stores';

const deps = testDeps(
  testConfig({ KMEM_EXTRACTION_TOKENS_PER_SECOND: '100', KMEM_DEFAULT_TOKEN_LIMIT: '100', KMEM_IMPORT_CONCURRENCY: '1' }),
);
afterAll(() => deps.documentClient.destroy());

const speech = readFileSync(new URL('../extract/fixtures/speech.ogg', import.meta.url));
const BUDGET_USED_UP = /the account's token budget is used up \(extraction time is charged to it\)/;

/** The worker's extractor, noting what it extracts and taking `ms` longer (as speech recognition of a longer file would). */
function observed(inner: ContentExtractor, ms: number): { extractor: ContentExtractor; extracted: string[] } {
  const extracted: string[] = [];
  const extractor: ContentExtractor = {
    fileTypeOf: (...args) => inner.fileTypeOf(...args),
    extract: async (...args) => {
      extracted.push(args[0].name);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return inner.extract(...args);
    },
  };
  return { extractor, extracted };
}

describe('bulk import and the token budget', () => {
  it('refuses POST /files/import up front for an account with no budget left', async () => {
    const created = await createAccount(deps, `import-broke-${process.pid}-${Date.now()}`);
    await deps.accounts.chargeTokens(created.account.id, 100);
    const archive = await upload('speech.zip', await makeZip({ 'speech.ogg': speech }), created.apiKey, 'application/zip');
    expect(archive.status).toBe(200);
    const refused = await call('POST', '/files/import', { key: created.apiKey, body: { archiveKey: archive.body.data.key } });
    expect(refused).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(refused.body.error).toMatch(BUDGET_USED_UP);
    expect(refused.body.data).toEqual({ tokensNeeded: 1, tokensAvailable: 0, tokensExceeded: 1 });
    expect((await deps.accounts.get(created.account.id))?.tokensRemaining).toBe(0);
  });

  it('charges what members extract, and extracts nothing once the budget is gone (the audio member fails with the reason)', async () => {
    const { account } = await createAccount(deps, `import-budget-${process.pid}-${Date.now()}`);
    const { extractor, extracted } = observed(deps.worker.extractor, 1_100);
    const zip = await makeZip([
      ['notes.txt', 'A note whose extraction takes over a second: one second of the budget.'],
      ['speech.ogg', speech],
      ['later.txt', 'Another note, after the budget is gone.'],
    ]);
    const done = await runArchiveImport(deps, { ...deps.worker, extractor }, account.id, { name: 'budget.zip', bytes: zip });
    expect(done).toMatchObject({ state: 'completed', total: 3, created: 1, failed: 2 });
    expect(extracted).toEqual(['notes.txt']); // the speech was never extracted
    // charged whole seconds of the note's extraction (one at least; the extraction thread's start counts too)
    expect((await deps.accounts.get(account.id))?.tokensRemaining).toBeLessThanOrEqual(0);
    expect(done.errors.map((e) => e.sourceKey)).toEqual(['archive:budget.zip/speech.ogg', 'archive:budget.zip/later.txt']);
    for (const problem of done.errors) expect(problem.error).toMatch(BUDGET_USED_UP);
    const files = await deps.files.listBySourcePrefix(account.id, 'archive:budget.zip/');
    const audio = files.find((file) => file.name === 'speech.ogg');
    expect(audio).toMatchObject({ state: 'failed', silverTranscriptKey: null });
    expect(audio?.error).toMatch(BUDGET_USED_UP);
  }, 60_000);
});
