/** GET /memory/ refuses a time window that holds nothing (`after` not earlier than `before`), naming `after`. */
import { describe, expect, it } from 'vitest';
import { get, post } from '../support/api';

describe('retrieval time window', () => {
  it('answers 400 naming after when after >= before', async () => {
    const memory = (await post('/memories/create', { name: 'window', memoryType: 'vector' })).body.data;
    const at = '2026-01-01T00:00:00Z';
    for (const before of [at, '2025-12-31T00:00:00Z']) {
      const answer = await get(`/memory/?memoryID=${memory.id}&query=x&after=${at}&before=${before}`);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toMatch(/^after: must be earlier than before/);
    }
    expect((await get(`/memory/?memoryID=${memory.id}&query=x&after=2025-12-31T00:00:00Z&before=${at}`)).status).toBe(200);
  });
});
