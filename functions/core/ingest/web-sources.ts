/**
 * Web sources in file processing: a `website` file is one page read for its main text; a `sitemap` file
 * becomes one hidden `website` child per listed page; a `website_bulk` file crawls its site in stretches
 * (state saved between them), each page read becoming a ready child.
 */
import { createHash } from 'node:crypto';
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { QueuePort } from '../ports';
import { countTokens, loadTokenizer } from '../../engine';
import type { WorkMessage } from '../work';
import { createPageChildren, createReadChild, finishParentIfDone, type HiddenFileDeps } from './hidden-files';
import { FileProcessingError, type PageValidators, type ReadPage, type SiteReader } from './ports';

export interface WebSourceDeps extends HiddenFileDeps {
  site: SiteReader;
  queue: QueuePort;
  config: { work: { crawlStretchMs: number } };
}

/** What a web file's processing leaves: a ready single page, or a parent still waiting on its pages. */
export type WebOutcome =
  | { kind: 'page'; text: string; bronzeKey: string; size: number; title: string; validators: PageValidators }
  | { kind: 'parent' };

export async function readWebSource(deps: WebSourceDeps, file: FileRecord): Promise<WebOutcome> {
  const url = file.externalUrl;
  if (!url) throw new FileProcessingError(`a '${file.fileType}' file needs an external_uri`);
  if (file.fileType === 'sitemap') {
    await readSitemap(deps, file, url);
    return { kind: 'parent' };
  }
  if (file.fileType === 'website_bulk') {
    await crawlStretch(deps, file, url);
    return { kind: 'parent' };
  }
  const page = await deps.site.page(url);
  const bronzeKey = await storePageHtml(deps, file, page);
  const validators = { ...file.validators, ...page.validators, textHash: textHashOf(page.text) };
  return { kind: 'page', text: page.text, bronzeKey, size: (page.html ?? page.text).length, title: page.title, validators };
}

/** Keeps a page's raw HTML (its text when there is none) under the file's bronze prefix; answers the key. */
export async function storePageHtml(deps: Pick<WebSourceDeps, 'objects'>, file: FileRecord, page: ReadPage): Promise<string> {
  const bronzeKey = objectKeys.fetched(file.accountId, file.id, 'page.html');
  await deps.objects.put(bronzeKey, page.html ?? new TextEncoder().encode(page.text), 'text/html');
  return bronzeKey;
}

export const textHashOf = (text: string): string => createHash('sha256').update(text.trim()).digest('hex');

/**
 * The address a crawled page is known by: its rel=canonical (on the same site) or its own, with a trailing
 * `index.html` (or `.htm`) and any fragment dropped, so `/` and `/index.html` are one page.
 */
function pageKeyOf(page: Pick<ReadPage, 'url' | 'canonicalUrl'>): string {
  const own = new URL(page.url);
  let key = own;
  try {
    const canonical = page.canonicalUrl ? new URL(page.canonicalUrl, own) : undefined;
    if (canonical && canonical.host === own.host) key = canonical;
  } catch {
    // an unusable canonical address: the page's own
  }
  key.hash = '';
  key.pathname = key.pathname.replace(/\/index\.html?$/i, '/');
  return key.href;
}

/** The crawled pages that are new to this crawl: one per address key and per text (the same bytes twice are one page). */
export function distinctPages(
  pages: readonly ReadPage[],
  known: readonly FileRecord[] = [],
): Array<ReadPage & { key: string; textHash: string }> {
  const keys = new Set(known.map((child) => child.externalUrl ?? ''));
  const texts = new Set(known.map((child) => child.validators?.textHash ?? ''));
  const out: Array<ReadPage & { key: string; textHash: string }> = [];
  for (const page of pages) {
    const key = pageKeyOf(page);
    const textHash = textHashOf(page.text);
    if (keys.has(key) || texts.has(textHash)) continue;
    keys.add(key);
    texts.add(textHash);
    out.push({ ...page, key, textHash });
  }
  return out;
}

async function readSitemap(deps: WebSourceDeps, parent: FileRecord, url: string): Promise<void> {
  const entries = await deps.site.sitemapEntries(url);
  const urls = entries.map((entry) => entry.url);
  if (urls.length === 0) throw new FileProcessingError(`the sitemap ${url} lists no pages`);
  await storeListing(deps, parent, sitemapListing(url, urls));
  await createPageChildren(deps, parent, entries);
  const after = await deps.files.update(parent.accountId, parent.id, { hiddenFilesTotal: urls.length });
  if (after) await finishParentIfDone(deps, after);
}

async function crawlStretch(deps: WebSourceDeps, parent: FileRecord, url: string): Promise<void> {
  const stateKey = objectKeys.crawlState(parent.accountId, parent.id);
  const saved = await deps.objects.get(stateKey);
  const state: unknown = saved ? JSON.parse(Buffer.from(saved).toString('utf8')) : null;
  const progress = await deps.site.crawl(url, state, deps.config.work.crawlStretchMs);
  await loadTokenizer();
  const known = await deps.files.listChildren(parent.accountId, parent.id);
  for (const page of distinctPages(progress.pages, known)) {
    const read = { ...page, url: page.key, tokens: countTokens(page.text), validators: { textHash: page.textHash } };
    if (await createReadChild(deps, parent, read)) {
      await deps.files.increment(parent.accountId, parent.id, 'hiddenFilesProcessed', 1);
    }
  }
  await deps.objects.put(stateKey, JSON.stringify(progress.state), 'application/json');
  if (!progress.finished) {
    await deps.queue.send({ kind: 'file.process', accountId: parent.accountId, fileId: parent.id } satisfies WorkMessage);
    return;
  }
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  if (children.length === 0) {
    const why = progress.failures[0] ? `: ${progress.failures[0]}` : '';
    throw new FileProcessingError(`the crawl of ${url} found no page it could read${why}`);
  }
  await storeListing(deps, parent, crawlListing(url, children));
  const after = await deps.files.update(parent.accountId, parent.id, { hiddenFilesTotal: children.length });
  if (after) await finishParentIfDone(deps, after);
}

export const sitemapListing = (url: string, urls: readonly string[]) => `Sitemap ${url}\n\n${urls.join('\n')}`;
export const crawlListing = (url: string, children: readonly FileRecord[]) =>
  `Crawl of ${url}\n\n${children.map((c) => c.externalUrl).join('\n')}`;

/** The parent's own transcript: the list of its pages (its content on files/get). */
export async function storeListing(deps: WebSourceDeps, parent: FileRecord, listing: string): Promise<void> {
  const key = objectKeys.transcript(parent.accountId, parent.id);
  await deps.objects.put(key, listing, 'text/plain; charset=utf-8');
  await deps.files.update(parent.accountId, parent.id, { silverTranscriptKey: key });
}
