/** The crawl state on its own: normalised addresses, the depth, host, file and size bounds, failures. */
import { describe, expect, it } from 'vitest';
import { FetchError } from '../../functions/adapters/web/errors';
import { createFrontier, isFinished, nextTarget, recordPage, recordSkip } from '../../functions/adapters/web/crawl-frontier';

describe('CrawlFrontier', () => {
  it('starts from the normalised start address and refuses what is not http(s)', () => {
    const frontier = createFrontier('HTTP://Example.COM:80/docs#intro', { maxPages: 5 });
    expect(frontier.queue).toEqual([{ url: 'http://example.com/docs', depth: 0 }]);
    expect(frontier.host).toBe('example.com');
    expect(frontier.limits).toEqual({ maxPages: 5, maxDepth: 3, maxFailures: 20, maxKnown: 5_000 });
    expect(() => createFrontier('javascript:alert(1)')).toThrow(FetchError);
  });

  it('queues new on-site page links one level deeper, once each', () => {
    const start = createFrontier('https://example.com/', { maxDepth: 1 });
    const links = [
      'https://example.com/a#part',
      'http://example.com/b',
      'https://example.com/a',
      'https://example.com/',
      'https://other.example/c',
      'https://example.com/brochure.PDF',
      'https://example.com:8443/d',
    ];
    const after = recordPage(start, 'https://example.com/', links);
    expect(after.queue).toEqual([
      { url: 'https://example.com/a', depth: 1 },
      { url: 'http://example.com/b', depth: 1 },
    ]);
    expect(after.pagesRead).toBe(1);
    expect(start.queue).toHaveLength(1); // the old state is untouched
    const deeper = recordPage(after, 'https://example.com/a', ['https://example.com/too-deep']);
    expect(deeper.queue).toEqual([{ url: 'http://example.com/b', depth: 1 }]);
  });

  it('remembers at most maxKnown addresses', () => {
    const start = createFrontier('https://example.com/', { maxKnown: 3 });
    const after = recordPage(
      start,
      'https://example.com/',
      ['/1', '/2', '/3', '/4'].map((p) => `https://example.com${p}`),
    );
    expect(after.known).toEqual(['https://example.com/', 'https://example.com/1', 'https://example.com/2']);
  });

  it('ends after too many failures', () => {
    let frontier = createFrontier('https://example.com/', { maxFailures: 1 });
    frontier = recordPage(frontier, 'https://example.com/', ['https://example.com/a', 'https://example.com/b']);
    expect(nextTarget(frontier)?.url).toBe('https://example.com/a');
    frontier = recordSkip(frontier, { failed: true });
    expect(isFinished(frontier)).toBe(true);
  });
});
