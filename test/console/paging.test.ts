/** The console's pickers read a listing whole: every page through nextToken, not the first 100 items. */
import { describe, expect, it } from 'vitest';
import { everyPage } from '../../console/src/paging';

/** A listing of `count` items served `limit` a page, with opaque tokens, as the API pages them. */
function listing(count: number, limit: number) {
  const items = Array.from({ length: count }, (_, i) => `memory-${i}`);
  const asked: Array<string | undefined> = [];
  const fetchPage = async (token: string | undefined) => {
    asked.push(token);
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    const end = start + limit;
    return { items: items.slice(start, end), nextToken: end < count ? Buffer.from(String(end)).toString('base64url') : null };
  };
  return { items, asked, fetchPage };
}

describe('everyPage', () => {
  it('follows nextToken to the last page (250 items at 100 a page: three requests)', async () => {
    const { items, asked, fetchPage } = listing(250, 100);
    expect(await everyPage(fetchPage)).toEqual(items);
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBeUndefined();
  });

  it('makes one request for a listing that fits a page, and answers an empty one empty', async () => {
    expect(await everyPage(listing(100, 100).fetchPage)).toHaveLength(100);
    expect(await everyPage(listing(0, 100).fetchPage)).toEqual([]);
  });

  it('stops when a listing hands back a token it already gave, rather than looping', async () => {
    let calls = 0;
    const items = await everyPage(async () => ({ items: [++calls], nextToken: 'same' }));
    expect(items).toEqual([1, 2]);
  });
});
