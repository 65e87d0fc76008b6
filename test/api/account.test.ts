import { describe, expect, it } from 'vitest';
import { env, get, post, textFile } from '../support/api';

describe('GET /account', () => {
  it("answers the calling account's token budget, each account its own", async () => {
    const a = await get('/account');
    expect(a.status).toBe(200);
    const budget = a.body.data;
    expect(budget).toMatchObject({ name: 'tenant-a', id: expect.any(String), createdAt: expect.any(String) });
    expect(budget.totalTokenLimit).toBeGreaterThan(0);
    expect(budget.tokensUsed).toBe(budget.totalTokenLimit - budget.tokensRemaining);
    expect((await get('/account', env().keyB)).body.data.name).toBe('tenant-b');
  });

  it('shows what start-ingestion reserved', async () => {
    const file = await textFile('budget.txt', 'Ada Lovelace wrote the first program for the Analytical Engine.');
    const memory = (await post('/memories/create', { name: 'budget', memoryType: 'vector' })).body.data;
    for (let i = 0; i < 50; i++) {
      const state = (await get(`/files/get/${file.id}`)).body.data.state;
      if (state === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await post('/memories/add-files', { memoryID: memory.id, files: [file.id] });
    const started = await post('/memories/start-ingestion', { memoryID: memory.id });
    expect(started.status).toBe(200);
    const { tokenMetrics } = started.body.data;
    const after = (await get('/account')).body.data;
    expect(after.totalTokenLimit).toBe(tokenMetrics.totalTokenLimit);
    expect(tokenMetrics.tokensForIngestion).toBeGreaterThan(0);
    expect(after.tokensUsed).toBe(after.totalTokenLimit - after.tokensRemaining);
    expect(after.tokensUsed).toBeGreaterThan(0);
  });

  it('needs a valid key', async () => {
    expect((await get('/account', null)).body).toMatchObject({
      error: expect.stringMatching(/^X-API-Key: header is missing/),
      status: 'unauthorized',
    });
    expect((await get('/account', 'nope')).status).toBe(403);
  });
});
