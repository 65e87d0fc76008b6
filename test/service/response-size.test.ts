/**
 * Answers stay under Lambda's 6 MB: list items carry at most 10,000 characters of content (flagged, the
 * message's own route has it whole), a page of items that are still large is answered shorter with a
 * token to the rest, and files/get cuts a very long text with an address to read it whole.
 */
import { describe, expect, it } from 'vitest';
import { env, get, listAll, post, upload, waitFor } from '../support/api';

const BUDGET = 4 * 1024 * 1024;

async function rawGet(path: string): Promise<{ bytes: number; body: Record<string, any> }> {
  const response = await fetch(`${env().url}${path}`, { headers: { 'X-API-Key': env().keyA } });
  const text = await response.text();
  return { bytes: Buffer.byteLength(text), body: JSON.parse(text) as Record<string, any> };
}

describe('response size', () => {
  it('cuts long message contents in lists and shortens pages of large items', async () => {
    const sessionID = `big-${process.pid}-${Date.now()}`;
    expect((await post('/sessions/create', { sessionID })).status).toBe(200);
    // control characters take 7 bytes each once the body is escaped inside the Lambda result: a listed message
    // (10,000 of them) is about 70 KB, so some 60 fill the 4 MB budget; 80 messages (not 100: each one's index
    // build writes the whole session again) are more than one page holds
    const heavy = '\u0007'.repeat(12_000);
    const count = 80;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await post('/messages/create', { sessionID, role: 'user', content: `${i} ${heavy}` });
      expect(created.status).toBe(200);
      ids.push(created.body.data.id);
    }
    const first = await rawGet(`/messages/list?sessionID=${sessionID}&limit=100`);
    expect(first.bytes).toBeLessThan(BUDGET);
    expect(first.body.messages.length).toBeGreaterThan(10);
    expect(first.body.messages.length).toBeLessThan(count);
    expect(first.body.nextToken).not.toBeNull();
    for (const message of first.body.messages) expect(message).toMatchObject({ contentTruncated: true, content: expect.any(String) });
    expect(first.body.messages[0].content).toHaveLength(10_000);

    const all = await listAll(`/messages/list?sessionID=${sessionID}&limit=100`, 'messages');
    expect(all.map((m) => m.id)).toEqual(ids);
    const whole = await get(`/messages/get/${ids[0]}`);
    expect(whole.body.data.content).toBe(`0 ${heavy}`);
    expect((await get(`/messages/get/${ids[0]}`, env().keyB)).status).toBe(404);

    const found = await rawGet(`/messages/search?query=${encodeURIComponent('7')}&sessionID=${sessionID}&topK=100`);
    expect(found.bytes).toBeLessThan(BUDGET);
  }, 60_000);

  it('answers a very long file text cut, with an address to read it whole', async () => {
    const text = `${'A long line of extracted text that goes on. '.repeat(14_000)}THE END`;
    const uploaded = await upload('long.txt', text);
    const created = await post('/files/create', { name: 'long.txt', key: uploaded.body.data.key, fileType: 'text' });
    const ready = await waitFor(`/files/get/${created.body.data.id}`, (b) => b.data?.state !== 'pending' && b.data?.state !== 'processing');
    expect(ready.data.state).toBe('ready');
    expect(ready.data.contentTruncated).toBe(true);
    expect(ready.data.content).toHaveLength(500_000);
    const wholeText = await (await fetch(ready.data.contentUrl)).text();
    expect(wholeText.endsWith('THE END')).toBe(true);
    expect(wholeText.length).toBeGreaterThan(600_000);
  });
});
