/**
 * The `file.resync` work: a `website`, `sitemap` or `website_bulk` file fetched again. A page is asked for
 * with the validators held (ETag, Last-Modified: a 304 costs nothing), a sitemap page whose <lastmod> did
 * not move is not asked for at all, and a page whose text hash is unchanged changes nothing. Changed pages
 * get their new text, new pages are added, vanished pages are removed; when anything changed, the memories
 * that had ingested the file take it again (file-sources.ts).
 */
import { mapConcurrently } from '../concurrency';
import { WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { LinkStore, UploadStore } from '../ports';
import { countTokens, loadTokenizer } from '../text/tokens';
import { refreshMemoriesOf } from '../use-cases/file-sources';
import { removeFileData } from '../use-cases/files';
import type { WorkMessage } from '../work';
import { createReadChild } from './hidden-files';
import { FileProcessingError, type ReadPage, TransientProcessingError } from './ports';
import { crawlListing, distinctPages, sitemapListing, storeListing, storePageHtml, textHashOf, type WebSourceDeps } from './web-sources';

export interface ResyncDeps extends WebSourceDeps {
  links: LinkStore;
  uploads: UploadStore;
}

/** Pages of a sitemap asked for at once. */
const PAGE_CONCURRENCY = 4;

export async function resyncWebFile(deps: ResyncDeps, message: Extract<WorkMessage, { kind: 'file.resync' }>): Promise<void> {
  const file = await deps.files.get(message.accountId, message.fileId);
  if (!file?.externalURI || file.parentFileId || !WEB_FILE_TYPES.has(file.fileType) || file.state !== 'ready') return;
  await loadTokenizer();
  const changed =
    file.fileType === 'website' ? await resyncPage(deps, file, file.externalURI)
    : file.fileType === 'sitemap' ? await resyncSitemap(deps, file, file.externalURI)
    : await resyncCrawl(deps, file, file.externalURI);
  if (changed) await refreshMemoriesOf(deps, file.accountId, [file.id]);
}

/** One page (a `website` file or a sitemap's page): answers whether its text changed. */
async function resyncPage(deps: ResyncDeps, file: FileRecord, url: string, lastmod?: string): Promise<boolean> {
  const read = await deps.site.pageIfChanged(url, file.validators ?? {});
  const validators = { ...file.validators, ...(lastmod ? { lastmod } : {}) };
  if (read === 'not-modified') {
    if (lastmod) await deps.files.update(file.accountId, file.id, { validators });
    return false;
  }
  const textHash = textHashOf(read.text);
  const next = { ...validators, ...read.validators, textHash };
  if (file.validators?.textHash === textHash) {
    await deps.files.update(file.accountId, file.id, { validators: next });
    return false;
  }
  const transcriptKey = objectKeys.transcript(file.accountId, file.id);
  await deps.objects.put(transcriptKey, read.text.trim(), 'text/plain; charset=utf-8');
  const bronzeKey = file.parentFileId ? file.bronzeKey : await storePageHtml(deps, file, read);
  await deps.files.update(file.accountId, file.id, {
    state: 'ready', error: null, silverTranscriptKey: transcriptKey, bronzeKey, validators: next,
    tokens: countTokens(read.text.trim()), length: read.text.trim().length, size: (read.html ?? read.text).length,
    updatedAt: deps.clock.now().toISOString(),
  });
  return true;
}

async function resyncSitemap(deps: ResyncDeps, parent: FileRecord, url: string): Promise<boolean> {
  const entries = await deps.site.sitemapEntries(url);
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const byUrl = new Map(children.map((child) => [child.externalURI ?? '', child]));
  const outcomes = await mapConcurrently(entries, PAGE_CONCURRENCY, async ({ url: pageUrl, lastmod }) => {
    const child = byUrl.get(pageUrl);
    if (child?.state === 'ready' && lastmod && child.validators?.lastmod === lastmod) return false;
    if (child?.state === 'ready') return skipUnreadable(() => resyncPage(deps, child, pageUrl, lastmod));
    if (child) await removeFileData(deps, child); // failed before: read it anew
    return skipUnreadable(() => addPage(deps, parent, pageUrl, lastmod));
  });
  const listed = new Set(entries.map((entry) => entry.url));
  const vanished = children.filter((child) => !listed.has(child.externalURI ?? ''));
  for (const child of vanished) await removeFileData(deps, child);
  const changed = outcomes.some(Boolean) || vanished.length > 0;
  if (changed) await settleParent(deps, parent, sitemapListing(url, [...listed]));
  return changed;
}

/** A page read now, added as a ready child; false when it cannot be read. */
async function addPage(deps: ResyncDeps, parent: FileRecord, url: string, lastmod?: string): Promise<boolean> {
  const page = await deps.site.page(url);
  return addRead(deps, parent, { ...page, url }, { ...page.validators, ...(lastmod ? { lastmod } : {}), textHash: textHashOf(page.text) });
}

function addRead(deps: ResyncDeps, parent: FileRecord, page: ReadPage, validators: FileRecord['validators']): Promise<boolean> {
  return createReadChild(deps, parent, { ...page, text: page.text.trim(), tokens: countTokens(page.text.trim()), validators });
}

/** A page that cannot be read now changes nothing (it stays as it was, or stays out). */
async function skipUnreadable(work: () => Promise<boolean>): Promise<boolean> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FileProcessingError || error instanceof TransientProcessingError) return false;
    throw error;
  }
}

/** A crawl again from the start: the same page under two addresses is one page, compared by its text hash. */
async function resyncCrawl(deps: ResyncDeps, parent: FileRecord, url: string): Promise<boolean> {
  const pages: ReadPage[] = [];
  let state: unknown = null;
  for (let finished = false; !finished; ) {
    const progress = await deps.site.crawl(url, state, deps.config.work.crawlStretchMs);
    pages.push(...progress.pages);
    state = progress.state;
    finished = progress.finished;
  }
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const byUrl = new Map(children.map((child) => [child.externalURI ?? '', child]));
  let changed = false;
  const found = distinctPages(pages);
  for (const page of found) {
    const child = byUrl.get(page.key);
    if (child?.validators?.textHash === page.textHash) continue;
    if (child) await removeFileData(deps, child);
    changed = (await addRead(deps, parent, { ...page, url: page.key }, { textHash: page.textHash })) || changed;
  }
  const keys = new Set(found.map((page) => page.key));
  const vanished = children.filter((child) => !keys.has(child.externalURI ?? ''));
  for (const child of vanished) await removeFileData(deps, child);
  changed = changed || vanished.length > 0;
  if (changed) {
    await settleParent(deps, parent, crawlListing(url, await deps.files.listChildren(parent.accountId, parent.id)));
  }
  return changed;
}

/** The parent's counts, tokens and listing from its children as they now are. */
async function settleParent(deps: ResyncDeps, parent: FileRecord, listing: string): Promise<void> {
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const ready = children.filter((child) => child.state === 'ready');
  await storeListing(deps, parent, listing);
  await deps.files.update(parent.accountId, parent.id, {
    hiddenFilesTotal: children.length,
    hiddenFilesCreated: children.length,
    hiddenFilesProcessed: children.length,
    tokens: ready.reduce((sum, child) => sum + (child.tokens ?? 0), 0),
    length: ready.reduce((sum, child) => sum + (child.length ?? 0), 0),
    updatedAt: deps.clock.now().toISOString(),
  });
}
