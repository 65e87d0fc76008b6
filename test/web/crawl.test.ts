/** Step-by-step crawls of a local site: breadth first, robots.txt, depth and page bounds, resumable state. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveHost } from '../../functions/adapters/net/dns-resolver';
import { crawlStep, crawlSteps, type CrawlOptions, type CrawlOutcome } from '../../functions/adapters/web/crawl';
import { createFrontier, isFinished, type CrawlFrontier, type CrawlLimits } from '../../functions/adapters/web/crawl-frontier';
import { RobotsPolicy } from '../../functions/adapters/web/robots';
import { html, page, redirect, send, startSite, type TestSite } from './site-server';

const ROBOTS = 'User-agent: *\nDisallow: /\n\nUser-agent: kmem\nDisallow: /private\n';

function linking(title: string, ...hrefs: string[]): string {
  return page(title, `<h1>${title}</h1><p>The ${title} page.</p>${hrefs.map((href) => `<a href="${href}">${href}</a>`).join(' ')}`);
}

let site: TestSite;
let options: CrawlOptions;

beforeAll(async () => {
  site = await startSite({
    '/robots.txt': (_req, res) => send(res, 200, 'text/plain', ROBOTS),
    '/': (_req, res) =>
      html(linking('home', '/a', '/b', '/#top', '/private/secret', 'http://other.test/', '/report.pdf', '/to-other-host', '/not-html'))(
        _req,
        res,
      ),
    '/a': html(linking('a', '/a/b', '/')),
    '/b': html(linking('b', '/a', '/a/b')),
    '/a/b': html(linking('a-b', '/a/b/c')),
    '/a/b/c': html(linking('a-b-c', '/a/b/c/d')),
    '/a/b/c/d': html(linking('a-b-c-d')),
    '/private/secret': html(linking('secret')),
    '/to-other-host': redirect('http://other.test/landing'),
    '/not-html': (_req, res) => send(res, 200, 'image/png', Buffer.from([0x89, 0x50])),
    '/moved': (_req, res) => redirect(`http://www.site.test:${site.port}/`)(_req, res),
  });
  // *.test names are this site; anything else resolves as usual (and is never fetched).
  const resolve = async (host: string) => (host.endsWith('.test') ? ['127.0.0.1'] : resolveHost(host));
  options = { allowPrivate: true, resolve };
});

afterAll(() => site.close());

/** Runs a crawl to the end, saving and restoring the frontier as JSON between steps. */
async function crawl(start: string, limits: Partial<CrawlLimits>, crawlOptions = options) {
  let frontier: CrawlFrontier = createFrontier(start, limits);
  const outcomes: CrawlOutcome[] = [];
  for (let steps = 0; steps < 100 && !isFinished(frontier); steps += 1) {
    const step = await crawlStep(frontier, crawlOptions);
    outcomes.push(step.outcome);
    frontier = JSON.parse(JSON.stringify(step.frontier)) as CrawlFrontier;
  }
  const pages = outcomes.flatMap((outcome) => (outcome.kind === 'page' ? [outcome] : []));
  return { frontier, outcomes, pages, paths: pages.map((outcome) => new URL(outcome.page.url).pathname) };
}

describe('crawl', () => {
  it('reads the site breadth first down to the depth limit, within robots.txt and the host', async () => {
    const hitsBefore = site.hits.length;
    const { paths, pages, outcomes, frontier } = await crawl(`${site.origin}/`, { maxDepth: 2 });
    expect(paths).toEqual(['/', '/a', '/b', '/a/b']);
    expect(pages.map((outcome) => outcome.depth)).toEqual([0, 1, 1, 2]);
    expect(pages[1]?.page.text).toContain('The a page.');
    const skipped = outcomes.flatMap((outcome) => (outcome.kind === 'skipped' ? [outcome] : []));
    expect(skipped.map((outcome) => [new URL(outcome.url).pathname, outcome.reason])).toEqual([
      ['/private/secret', 'disallowed by robots.txt'],
      [
        '/to-other-host',
        `refused: ${site.origin}/to-other-host redirected to http://other.test/landing, which leaves 127.0.0.1:${site.port}`,
      ],
      ['/not-html', `${site.origin}/not-html is not an HTML page (content-type image/png)`],
    ]);
    const hits = site.hits.slice(hitsBefore);
    expect(hits.filter((hit) => hit === '/robots.txt')).toHaveLength(1);
    expect(hits).not.toContain('/private/secret');
    expect(hits).not.toContain('/a/b/c');
    expect(hits).not.toContain('/report.pdf');
    expect(frontier.pagesRead).toBe(4);
    expect(frontier.queue).toEqual([]);
  });

  it('stops at the page limit', async () => {
    const { paths, frontier } = await crawl(`${site.origin}/`, { maxPages: 2 });
    expect(paths).toEqual(['/', '/a']);
    expect(isFinished(frontier)).toBe(true);
    expect(frontier.queue.length).toBeGreaterThan(0);
  });

  it('reads only the start page at depth 0, and three levels at depth 3', async () => {
    expect((await crawl(`${site.origin}/`, { maxDepth: 0 })).paths).toEqual(['/']);
    expect((await crawl(`${site.origin}/`, { maxDepth: 3 })).paths).toEqual(['/', '/a', '/b', '/a/b', '/a/b/c']);
  });

  it('follows the start page to the host it redirects to', async () => {
    const { paths, frontier, pages } = await crawl(`${site.origin}/moved`, { maxDepth: 1 });
    expect(frontier.host).toBe(`www.site.test:${site.port}`);
    expect(pages[0]?.page.url).toBe(`http://www.site.test:${site.port}/`);
    expect(paths).toEqual(['/', '/a', '/b']);
    expect(site.headers.get('/robots.txt')?.host).toBe(`www.site.test:${site.port}`);
  });

  it('fails the start page on a refused address', async () => {
    const { outcomes, pages } = await crawl(`${site.origin}/`, {}, { ...options, allowPrivate: false });
    expect(pages).toEqual([]);
    expect(outcomes).toHaveLength(1);
    const [outcome] = outcomes;
    expect(outcome?.kind === 'failed' && outcome.error.message).toBe(`refused: ${site.origin}/robots.txt is a private address (127.0.0.1)`);
  });

  it('runs steps back to back until told to stop', async () => {
    const seen: string[] = [];
    let last: CrawlFrontier | undefined;
    for await (const step of crawlSteps(createFrontier(`${site.origin}/`, { maxDepth: 1 }), options, () => seen.length >= 2)) {
      if (step.outcome.kind === 'page') seen.push(step.outcome.page.url);
      last = step.frontier;
    }
    expect(seen).toEqual([`${site.origin}/`, `${site.origin}/a`]);
    expect(last && isFinished(last)).toBe(false);
  });
});

describe('crawl with an unreadable robots.txt', () => {
  let broken: TestSite;
  beforeAll(async () => {
    broken = await startSite({
      '/robots.txt': (_req, res) => send(res, 500, 'text/plain', 'oops'),
      '/': html(linking('home', '/a')),
    });
  });
  afterAll(() => broken.close());

  it('reads nothing, as RFC 9309 asks', async () => {
    const { outcomes, pages } = await crawl(`${broken.origin}/`, {});
    expect(pages).toEqual([]);
    expect(outcomes).toEqual([
      {
        kind: 'skipped',
        url: `${broken.origin}/`,
        reason: `robots.txt could not be read (${broken.origin}/robots.txt answered 500 Internal Server Error)`,
      },
    ]);
    expect(broken.hits).toEqual(['/robots.txt']);
  });
});

describe('RobotsPolicy', () => {
  const file = {
    url: 'https://example.com/robots.txt',
    status: 'rules',
    text: 'User-agent: kmem\nCrawl-delay: 2\nDisallow: /drafts\n',
  } as const;

  it('applies the group of our user agent, whatever the scheme of the address', () => {
    const policy = new RobotsPolicy(file);
    expect(policy.isAllowed('https://example.com/drafts/1')).toBe(false);
    expect(policy.isAllowed('http://example.com/drafts/1')).toBe(false);
    expect(policy.isAllowed('https://example.com/posts/1')).toBe(true);
    expect(policy.crawlDelayMs()).toBe(2_000);
  });

  it('allows everything with an empty file, nothing with an unreachable one', () => {
    expect(new RobotsPolicy({ ...file, text: '' }).isAllowed('https://example.com/x')).toBe(true);
    expect(new RobotsPolicy({ ...file, status: 'unreachable' }).isAllowed('https://example.com/x')).toBe(false);
  });
});
