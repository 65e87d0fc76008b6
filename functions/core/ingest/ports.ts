/** Ports of the worker pipeline: where bytes come from, how they become text, and who extracts a file's graph. */
import type { extractFile, FileExtraction, GraphFileInput } from '../../engine/graph';
import { InternalError } from '../errors';
import type { FileRecord, FileType } from '../model';
import type { ImportSource } from '../files/bulk-import';

/** What extraction makes of a file. */
export interface FileContent {
  text: string;
  /** Seconds of audio or video, when the file has them. */
  lengthSeconds?: number;
  numSpeakers?: number;
  /** The audio track of a video, kept as the file's silver audio. */
  audio?: Uint8Array;
  title?: string;
}

/** Turns a file's raw bytes into text; throws FileProcessingError with a reason a person understands. */
export interface ContentExtractor {
  extract(file: FileRecord, bytes: Uint8Array, contentType: string | null): Promise<FileContent>;
  /** The file type the bytes are (document, text, image, audio, video, or other), told from the bytes. */
  fileTypeOf(bytes: Uint8Array): FileType;
}

export interface FetchedResource {
  bytes: Uint8Array;
  contentType: string | null;
  /** The address after redirects. */
  url: string;
}

/** Fetches a web address safely (guarded, bounded); throws FileProcessingError when it cannot. */
export interface RemoteFetcher {
  fetch(url: string): Promise<FetchedResource>;
}

/** A failure that belongs to the file, not to the service: the file goes `failed` with this message. */
export class FileProcessingError extends InternalError {
  override readonly name: string = 'FileProcessingError';
}

/** The file broke a bound of extraction (size, pages, pixels, time, depth): failed, and counted as hostile. */
export class RefusedFileError extends FileProcessingError {
  override readonly name: string = 'RefusedFileError';
}

/** A failure that may pass (a site timing out, a 503): retried; after the last try the file fails with it. */
export class TransientProcessingError extends InternalError {
  override readonly name: string = 'TransientProcessingError';
}

/** A web page read for its text. */
export interface ReadPage {
  /** The address after redirects. */
  url: string;
  title: string;
  text: string;
  /** The raw HTML, kept under the bronze prefix (a crawl keeps only the text). */
  html?: Uint8Array;
  /** The page's rel=canonical address, when it names one. */
  canonicalUrl?: string;
  /** The answer's ETag and Last-Modified, for the next conditional request. */
  validators?: PageValidators;
}

/** What tells whether a page changed since it was read: HTTP validators, the sitemap's lastmod, a text hash. */
export interface PageValidators {
  etag?: string;
  lastModified?: string;
  lastmod?: string;
  textHash?: string;
}

/** What one stretch of a crawl found; `state` is opaque JSON to save and hand back to continue. */
export interface CrawlProgress {
  state: unknown;
  pages: ReadPage[];
  failures: string[];
  finished: boolean;
}

/** Reading web sources: single pages, sitemaps and bounded same-host crawls (robots.txt respected). */
export interface SiteReader {
  page(url: string): Promise<ReadPage>;
  /** The page addresses a sitemap (or sitemap index) lists, de-duplicated and bounded. */
  sitemapUrls(url: string): Promise<string[]>;
  /** The same, with each address's <lastmod> when the sitemap gives one. */
  sitemapEntries(url: string): Promise<Array<{ url: string; lastmod?: string }>>;
  /** Reads a page again unless the validators held show it unchanged (a 304 answer). */
  pageIfChanged(url: string, validators: PageValidators): Promise<ReadPage | 'not-modified'>;
  /** Crawls from `startUrl` (or continues `state`) for about `budgetMs`. */
  crawl(startUrl: string, state: unknown, budgetMs: number): Promise<CrawlProgress>;
}

/** One member of an import's source: its path under the source, and a way to read its bytes. */
export interface ImportMemberRef {
  path: string;
  /**
   * An S3 object's ETag from the listing, or a zip member's recorded CRC-32 and size: the same as at the
   * last import means the same bytes (kept in the file's `validators.etag`).
   */
  etag?: string;
  /** Its bytes, as listed, recorded or read (a tar member's are held from the walk on); batches are bounded by them. */
  size: number;
  load(): Promise<Uint8Array>;
  /**
   * An S3 object's user metadata (`x-amz-meta-*`, names without the prefix): what load() read with the
   * bytes, or (not loaded) a HEAD request. Archive members have none.
   */
  userMetadata?(): Promise<Record<string, string>>;
}

/** Reads the sources of bulk imports: uploaded archives and S3 prefixes. */
export interface ImportReader {
  /**
   * Checks the whole source before anything is kept (an archive: every limit, on the streamed bytes) and
   * answers its member paths in source order; throws ImportRefusedError with the reason. `unchanged`: the
   * etag recorded at the last import by member path; a member listed with the same etag is not read now
   * either (the import will not read it), so an archive need not decompress it to check it.
   */
  survey(source: ImportSource, unchanged?: ReadonlyMap<string, string>): Promise<string[]>;
  /** The members in the same order, from position `from` on. */
  members(source: ImportSource, from: number): AsyncIterable<ImportMemberRef>;
}

/** A source an import cannot read at all (a refused archive, a bucket it may not read). */
export class ImportRefusedError extends InternalError {
  override readonly name: string = 'ImportRefusedError';
}

/** What every graph extractor gets: the memory's ontology schema, facts on/off, the optional vector typer. */
export type ExtractionContext = Parameters<typeof extractFile>[1];

/**
 * A file's graph extraction, whoever made it: the same `FileExtraction` the offline `extractFile` makes
 * (so `mergeFile` resolves it unchanged), plus what it cost and whether the offline extractor stood in.
 */
export interface GraphExtractionResult {
  readonly extraction: FileExtraction;
  /** Model tokens the file's calls consumed (prompt + completion, malformed answers included); 0 offline and for Comprehend. */
  readonly tokensUsed: number;
  /** Whether any chunk's extraction came from the offline extractor instead of the service. */
  readonly fellBack: boolean;
  /** Why it fell back (the first failure, and how many chunks it covered). */
  readonly reason?: string;
  /** Chunks the offline extractor made. */
  readonly offlineChunks: number;
  /** Requests sent to a service, retries included. */
  readonly calls: number;
  /** Amazon Comprehend billing units (100 characters each, at least 3 per request); Comprehend only. */
  readonly billedUnits?: number;
}

/**
 * The graph-extractor port: a file's entities, relations and facts, made offline (OFFLINE_GRAPH_EXTRACTOR)
 * or by a service (functions/adapters/graph-extraction: a language model, Amazon Comprehend).
 */
export interface GraphExtractor {
  /** "offline", "openai-compatible/<model>", "bedrock/<model>", "comprehend". */
  readonly name: string;
  extract(input: GraphFileInput, context: ExtractionContext): Promise<GraphExtractionResult>;
}
