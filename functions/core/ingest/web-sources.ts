/**
 * Web sources in file processing: a `website` file is one page read for its main text; a `sitemap` file
 * becomes one hidden `website` child per listed page; a `website_bulk` file crawls its site in stretches
 * (state saved between them), each page read becoming a ready child.
 */
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { QueuePort } from '../ports';
import { countTokens, loadTokenizer } from '../text/tokens';
import type { WorkMessage } from '../work';
import { createPageChildren, createReadChild, finishParentIfDone, type HiddenFileDeps } from './hidden-files';
import { FileProcessingError, type SiteReader } from './ports';

export interface WebSourceDeps extends HiddenFileDeps {
  site: SiteReader;
  queue: QueuePort;
  config: { work: { crawlStretchMs: number } };
}

/** What a web file's processing leaves: a ready single page, or a parent still waiting on its pages. */
export type WebOutcome = { kind: 'page'; text: string; bronzeKey: string; size: number; title: string } | { kind: 'parent' };

export async function readWebSource(deps: WebSourceDeps, file: FileRecord): Promise<WebOutcome> {
  const url = file.externalURI;
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
  const html = page.html ?? new TextEncoder().encode(page.text);
  const bronzeKey = objectKeys.fetched(file.accountId, file.id, 'page.html');
  await deps.objects.put(bronzeKey, html, 'text/html');
  return { kind: 'page', text: page.text, bronzeKey, size: html.length, title: page.title };
}

async function readSitemap(deps: WebSourceDeps, parent: FileRecord, url: string): Promise<void> {
  const urls = await deps.site.sitemapUrls(url);
  if (urls.length === 0) throw new FileProcessingError(`the sitemap ${url} lists no pages`);
  await storeListing(deps, parent, `Sitemap ${url}\n\n${urls.join('\n')}`);
  await createPageChildren(deps, parent, urls);
  const after = await deps.files.update(parent.accountId, parent.id, { hiddenFilesTotal: urls.length });
  if (after) await finishParentIfDone(deps, after);
}

async function crawlStretch(deps: WebSourceDeps, parent: FileRecord, url: string): Promise<void> {
  const stateKey = objectKeys.crawlState(parent.accountId, parent.id);
  const saved = await deps.objects.get(stateKey);
  const state: unknown = saved ? JSON.parse(Buffer.from(saved).toString('utf8')) : null;
  const progress = await deps.site.crawl(url, state, deps.config.work.crawlStretchMs);
  await loadTokenizer();
  for (const page of progress.pages) {
    if (await createReadChild(deps, parent, { ...page, tokens: countTokens(page.text) })) {
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
  await storeListing(deps, parent, `Crawl of ${url}\n\n${children.map((c) => c.externalURI).join('\n')}`);
  const after = await deps.files.update(parent.accountId, parent.id, { hiddenFilesTotal: children.length });
  if (after) await finishParentIfDone(deps, after);
}

/** The parent's own transcript: the list of its pages (its content on files/get). */
async function storeListing(deps: WebSourceDeps, parent: FileRecord, listing: string): Promise<void> {
  const key = objectKeys.transcript(parent.accountId, parent.id);
  await deps.objects.put(key, listing, 'text/plain; charset=utf-8');
  await deps.files.update(parent.accountId, parent.id, { silverTranscriptKey: key });
}
