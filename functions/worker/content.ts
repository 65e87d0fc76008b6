/**
 * How the worker turns raw bytes into text. Text files are read here; the other kinds go to the
 * extractors of functions/extract (documents, images, audio, video), chosen by the file's type and content.
 */
import type { FileRecord } from '../core/model';
import { decodeText, looksLikeText } from '../core/ingest/plain-text';
import { type ContentExtractor, type FileContent, FileProcessingError } from '../core/ingest/ports';

export class TextContentExtractor implements ContentExtractor {
  async extract(file: FileRecord, bytes: Uint8Array): Promise<FileContent> {
    if (file.fileType === 'text' || (file.fileType === 'other' && looksLikeText(bytes))) {
      return { text: decodeText(bytes) };
    }
    throw new FileProcessingError(`files of type '${file.fileType}' cannot be read by this deployment yet`);
  }
}
