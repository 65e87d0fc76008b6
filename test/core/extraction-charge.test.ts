/**
 * Extraction time is charged to the account's token budget (in-memory stores, the worker's own file
 * processing): a file whose extraction takes over a second costs KMEM_EXTRACTION_TOKENS_PER_SECOND per
 * whole second, a quick one nothing, and an account with no budget left gets no extraction.
 */
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import type { ContentExtractor } from '../../functions/core/ingest/ports';
import { accountsReadBetweenCharges } from '../../functions/core/ingest/extraction-charge';
import { processFile } from '../../functions/core/ingest/process-file';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';

const base = memoryDeps(memoryConfig({ KMEM_EXTRACTION_TOKENS_PER_SECOND: '100', KMEM_DEFAULT_TOKEN_LIMIT: '10000' }));
const { worker } = base;

/** The worker's extractor, taking `ms` longer (as OCR or speech recognition of a real file would). */
const slower = (inner: ContentExtractor, ms: number): ContentExtractor => ({
  fileTypeOf: (...args) => inner.fileTypeOf(...args),
  extract: async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return inner.extract(...args);
  },
});

async function textFileOf(accountId: string, text: string) {
  const upload = await uploadFile(base, accountId, { name: 'note.txt', contentType: 'text/plain', bytes: Buffer.from(text) });
  return createFile(base, accountId, { name: 'note.txt', key: upload.key, fileType: 'text' });
}

describe('extraction charge', () => {
  it('charges whole seconds of extraction, nothing for a quick one, and refuses an account with no budget', async () => {
    // the extraction sandbox's thread starts with the first file (a second or two): start it before measuring
    const warm = (await createAccount(base, `extraction-warm-${process.pid}-${Date.now()}`)).account;
    await processFile(worker, warm.id, (await textFileOf(warm.id, 'Starts the extraction thread.')).id);
    const { account } = await createAccount(base, `extraction-${process.pid}-${Date.now()}`);
    const remaining = async () => (await base.accounts.get(account.id))?.tokensRemaining;

    const quick = await textFileOf(account.id, 'A short note that extracts at once.');
    expect(await processFile(worker, account.id, quick.id)).toBe('ready');
    expect(await remaining()).toBe(10_000);

    const slow = await textFileOf(account.id, 'A note whose extraction takes over a second.');
    expect(await processFile({ ...worker, extractor: slower(worker.extractor, 1_100) }, account.id, slow.id)).toBe('ready');
    expect(await remaining()).toBe(9_900);

    await base.accounts.chargeTokens(account.id, 9_900);
    const refused = await textFileOf(account.id, 'No budget left for this one.');
    expect(await processFile(worker, account.id, refused.id)).toBe('failed');
    expect((await base.files.get(account.id, refused.id))?.error).toMatch(/token budget is used up/);
  });
});

describe("a run of many extractions (a bulk import's members)", () => {
  it('reads the account once, and again only after a charge changed its budget', async () => {
    const { account } = await createAccount(base, `extraction-reads-${process.pid}-${Date.now()}`);
    let reads = 0;
    const counted = {
      get: (accountId: string) => ((reads += 1), base.accounts.get(accountId)),
      chargeTokens: (accountId: string, tokens: number) => base.accounts.chargeTokens(accountId, tokens),
    };
    const run = accountsReadBetweenCharges(counted);
    const budgets = [];
    for (let i = 0; i < 5; i += 1) budgets.push((await run.get(account.id))?.tokensRemaining);
    expect(reads).toBe(1);
    await run.chargeTokens(account.id, 400);
    budgets.push((await run.get(account.id))?.tokensRemaining, (await run.get(account.id))?.tokensRemaining);
    expect(reads).toBe(2);
    expect(budgets).toEqual([10_000, 10_000, 10_000, 10_000, 10_000, 9_600, 9_600]);
  });
});
