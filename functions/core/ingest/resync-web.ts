/**
 * The `file.resync` work: a `website`, `sitemap` or `website_bulk` file fetched again. A page is asked for
 * with the validators held (ETag, Last-Modified: a 304 costs nothing), a sitemap page whose <lastmod> did
 * not move is not asked for at all, and a page whose text hash is unchanged changes nothing. Changed pages
 * get their new text, new pages are added, vanished pages are removed; when anything changed, the memories
 * that had ingested the file take it again (file-sources.ts).
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { LinkStore } from '../ports';
import type { UploadStore } from '../files/ports';
import { countTokens, loadTokenizer } from '../../engine';
import { refreshMemoriesOf } from '../files/memory-links';
import { removeFileData } from '../files/file-records';
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

/** Re-syncs the file, then clears its re-sync claim (POST /files/resync takes one while a re-sync runs). */
export async function resyncWebFile(deps: ResyncDeps, message: Extract<WorkMessage, { kind: 'file.resync' }>): Promise<void> {
  try {
    await resyncWebSource(deps, message);
  } finally {
    await deps.files.endResync(message.accountId, message.fileId);
  }
}

async function resyncWebSource(deps: ResyncDeps, message: Extract<WorkMessage, { kind: 'file.resync' }>): Promise<void> {
  const file = await deps.files.get(message.accountId, message.fileId);
  if (!file?.externalUrl || file.parentFileId || !WEB_FILE_TYPES.has(file.fileType) || file.state !== 'ready') return;
  await loadTokenizer();
  if (file.fileType === 'website') {
    if ((await resyncPage(deps, file, file.externalUrl)) !== undefined) await refreshMemoriesOf(deps, file.accountId, [file.id]);
    return;
  }
  const resynced =
    file.fileType === 'sitemap' ? await resyncSitemap(deps, file, file.externalUrl) : await resyncCrawl(deps, file, file.externalUrl);
  // the memories charge the new and changed pages' tokens only, not the whole site's again
  if (resynced.changed) await refreshMemoriesOf(deps, file.accountId, [file.id], { [file.id]: resynced.tokens });
}

/**
 * The `web.resync-due` work (the stage's schedule): a `file.resync` for every ready web source of every
 * account. Each re-sync costs only what changed, so a tick over unchanged sites is cheap. Answers how many.
 */
export async function queueDueResyncs(deps: Pick<ResyncDeps, 'files' | 'queue'>): Promise<number> {
  let queued = 0;
  for await (const page of deps.files.readyWebSources()) {
    await mapConcurrently(page, STORE_CONCURRENCY, (file) =>
      deps.queue.send({ kind: 'file.resync', accountId: file.accountId, fileId: file.id } satisfies WorkMessage),
    );
    queued += page.length;
  }
  return queued;
}

/** What a re-sync of a site changed: anything at all, and the tokens of its new and changed pages. */
interface Resynced {
  changed: boolean;
  tokens: number;
}

const summed = (outcomes: ReadonlyArray<number | undefined>, removed: number): Resynced => ({
  changed: removed > 0 || outcomes.some((tokens) => tokens !== undefined),
  tokens: outcomes.reduce<number>((sum, tokens) => sum + (tokens ?? 0), 0),
});

/** One page (a `website` file or a sitemap's page): its new tokens when its text changed, else undefined. */
async function resyncPage(deps: ResyncDeps, file: FileRecord, url: string, lastmod?: string): Promise<number | undefined> {
  const read = await deps.site.pageIfChanged(url, file.validators ?? {});
  const validators = { ...file.validators, ...(lastmod ? { lastmod } : {}) };
  if (read === 'not-modified') {
    if (lastmod) await deps.files.update(file.accountId, file.id, { validators });
    return undefined;
  }
  const textHash = textHashOf(read.text);
  const next = { ...validators, ...read.validators, textHash };
  if (file.validators?.textHash === textHash) {
    await deps.files.update(file.accountId, file.id, { validators: next });
    return undefined;
  }
  const transcriptKey = objectKeys.transcript(file.accountId, file.id);
  await deps.objects.put(transcriptKey, read.text.trim(), 'text/plain; charset=utf-8');
  const bronzeKey = file.parentFileId ? file.bronzeKey : await storePageHtml(deps, file, read);
  const tokens = countTokens(read.text.trim());
  await deps.files.update(file.accountId, file.id, {
    state: 'ready',
    error: null,
    silverTranscriptKey: transcriptKey,
    bronzeKey,
    validators: next,
    tokens,
    length: read.text.trim().length,
    size: (read.html ?? read.text).length,
    updatedAt: deps.clock.now().toISOString(),
  });
  return tokens;
}

async function resyncSitemap(deps: ResyncDeps, parent: FileRecord, url: string): Promise<Resynced> {
  const entries = await deps.site.sitemapEntries(url);
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const byUrl = new Map(children.map((child) => [child.externalUrl ?? '', child]));
  const outcomes = await mapConcurrently(entries, PAGE_CONCURRENCY, async ({ url: pageUrl, lastmod }) => {
    const child = byUrl.get(pageUrl);
    if (child?.state === 'ready' && lastmod && child.validators?.lastmod === lastmod) return undefined;
    if (child?.state === 'ready') return skipUnreadable(() => resyncPage(deps, child, pageUrl, lastmod));
    if (child) await removeFileData(deps, child); // failed before: read it anew
    return skipUnreadable(() => addPage(deps, parent, pageUrl, lastmod));
  });
  const listed = new Set(entries.map((entry) => entry.url));
  const vanished = children.filter((child) => !listed.has(child.externalUrl ?? ''));
  for (const child of vanished) await removeFileData(deps, child);
  const resynced = summed(outcomes, vanished.length);
  if (resynced.changed) await settleParent(deps, parent, sitemapListing(url, [...listed]));
  return resynced;
}

/** A page read now, added as a ready child: its tokens; undefined when it cannot be read. */
async function addPage(deps: ResyncDeps, parent: FileRecord, url: string, lastmod?: string): Promise<number | undefined> {
  const page = await deps.site.page(url);
  return addRead(deps, parent, { ...page, url }, { ...page.validators, ...(lastmod ? { lastmod } : {}), textHash: textHashOf(page.text) });
}

async function addRead(
  deps: ResyncDeps,
  parent: FileRecord,
  page: ReadPage,
  validators: FileRecord['validators'],
): Promise<number | undefined> {
  const tokens = countTokens(page.text.trim());
  return (await createReadChild(deps, parent, { ...page, text: page.text.trim(), tokens, validators })) ? tokens : undefined;
}

/** A page that cannot be read now changes nothing (it stays as it was, or stays out). */
async function skipUnreadable(work: () => Promise<number | undefined>): Promise<number | undefined> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FileProcessingError || error instanceof TransientProcessingError) return undefined;
    throw error;
  }
}

/** A crawl again from the start: the same page under two addresses is one page, compared by its text hash. */
async function resyncCrawl(deps: ResyncDeps, parent: FileRecord, url: string): Promise<Resynced> {
  const pages: ReadPage[] = [];
  let state: unknown = null;
  for (let finished = false; !finished; ) {
    const progress = await deps.site.crawl(url, state, deps.config.work.crawlStretchMs);
    pages.push(...progress.pages);
    state = progress.state;
    finished = progress.finished;
  }
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const byUrl = new Map(children.map((child) => [child.externalUrl ?? '', child]));
  const outcomes: Array<number | undefined> = [];
  const found = distinctPages(pages);
  for (const page of found) {
    const child = byUrl.get(page.key);
    if (child?.validators?.textHash === page.textHash) continue;
    if (child) await removeFileData(deps, child);
    outcomes.push(await addRead(deps, parent, { ...page, url: page.key }, { textHash: page.textHash }));
  }
  const keys = new Set(found.map((page) => page.key));
  const vanished = children.filter((child) => !keys.has(child.externalUrl ?? ''));
  for (const child of vanished) await removeFileData(deps, child);
  const resynced = summed(outcomes, vanished.length);
  if (resynced.changed) {
    await settleParent(deps, parent, crawlListing(url, await deps.files.listChildren(parent.accountId, parent.id)));
  }
  return resynced;
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
