/** Inputs that would outgrow one table item (400 KB) are refused with the field named, not stored half. */
import { describe, expect, it } from 'vitest';
import { post } from '../support/api';

describe('item limits', () => {
  it('refuses session metadata over 64 KB, counted in UTF-8, and takes it just under', async () => {
    const entries = (value: string) => Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value }));
    const refused = await post('/sessions/create', { metadata: entries('語'.repeat(600)) }); // 40 × 1.8 KB = 72 KB
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'bad_request', error: expect.stringMatching(/^metadata: .*64 KB/) });
    const taken = await post('/sessions/create', { metadata: entries('語'.repeat(500)) }); // 40 × 1.5 KB = 60 KB
    expect(taken.status).toBe(200);
  });
});
