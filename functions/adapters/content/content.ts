/**
 * How the worker turns raw bytes into text: functions/adapters/extract decides the kind from the content (PDF,
 * Office, HTML, images, audio, video, text) with the OCR engine and speech recogniser configured here.
 * Off Lambda, extraction runs in a thread with memory and time limits (adapters/sandbox/), so a runaway file fails
 * alone; on Lambda, inline, the function's own limits and the extractors' bounds confine it.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import type { FileRecord, FileType } from '../../core/model';
import { sniffContent } from '../extract/sniff';
import {
  type ContentExtractor,
  type FileContent,
  FileProcessingError,
  RefusedFileError,
  TransientProcessingError,
} from '../../core/ingest/ports';
import { type Extracted, ExtractionError, type ExtractInput, extractText } from '../extract';
import { logger } from '../../observability';
import { closeExtractDeps, createExtractDeps } from './extract-deps';
import { ExtractionSandbox } from '../sandbox/extraction-sandbox';

interface Extraction {
  extract(input: ExtractInput): Promise<Extracted>;
  close(): Promise<void>;
}

export class FileContentExtractor implements ContentExtractor {
  private readonly extraction: Extraction;

  constructor(config: Config, s3: S3Client) {
    const { isolation, memoryMb, timeoutMs } = config.hostileInput;
    this.extraction = isolation === 'thread' ? new ExtractionSandbox({ memoryMb, timeoutMs, config }) : inline(config, s3);
  }

  /** Stops the OCR and speech engines' workers (the local runtime does this when it stops). */
  async close(): Promise<void> {
    await this.extraction.close();
  }

  fileTypeOf(bytes: Uint8Array): FileType {
    const sniffed = sniffContent(bytes);
    if (sniffed.family === 'pdf' || sniffed.family === 'package') return 'document';
    if (sniffed.family === 'media') return sniffed.hint === 'audio' ? 'audio' : 'video';
    if (sniffed.family === 'image' || sniffed.family === 'text') return sniffed.family;
    return 'other';
  }

  async extract(file: FileRecord, bytes: Uint8Array, contentType: string | null): Promise<FileContent> {
    if (file.fileType === 'website' || file.fileType === 'sitemap' || file.fileType === 'website_bulk') {
      throw new FileProcessingError(`a '${file.fileType}' file is read from its address`);
    }
    try {
      const extracted = await this.extraction.extract({ bytes, fileType: file.fileType, name: file.name, contentType });
      // What did not stop extraction (a page that would not render, pages past the OCR limit) is said, not lost.
      if (extracted.warnings.length > 0) {
        logger.warn('extraction warnings', { fileId: file.id, accountId: file.accountId, warnings: extracted.warnings });
      }
      return {
        text: extracted.text,
        ...(extracted.title ? { title: extracted.title } : {}),
        ...(extracted.lengthSeconds === undefined ? {} : { lengthSeconds: extracted.lengthSeconds }),
        ...(extracted.numSpeakers === undefined ? {} : { numSpeakers: extracted.numSpeakers }),
        ...(extracted.audio ? { audio: extracted.audio } : {}),
      };
    } catch (error) {
      if (!(error instanceof ExtractionError)) throw error;
      if (error.retryable) throw new TransientProcessingError(error.message, { cause: error });
      if (error.refused) throw new RefusedFileError(error.message, { cause: error });
      throw new FileProcessingError(error.message, { cause: error });
    }
  }
}

/** Extraction on the worker's own thread. */
function inline(config: Config, s3: S3Client): Extraction {
  const deps = createExtractDeps(config, s3);
  return { extract: (input) => extractText(input, deps), close: () => closeExtractDeps(deps) };
}
