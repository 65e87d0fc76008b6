/** Ports of file processing: where bytes come from and how they become text. */
import type { FileRecord } from '../model';

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
export class FileProcessingError extends Error {
  override readonly name = 'FileProcessingError';
}
