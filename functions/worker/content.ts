/**
 * How the worker turns raw bytes into text: functions/extract decides the kind from the content (PDF,
 * Office, HTML, images, audio, video, text) with the OCR engine and speech recogniser configured here.
 */
import { TextractClient } from '@aws-sdk/client-textract';
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config';
import type { FileRecord, FileType } from '../core/model';
import { sniffContent } from '../extract/sniff';
import { type ContentExtractor, type FileContent, FileProcessingError, TransientProcessingError } from '../core/ingest/ports';
import {
  createPocketsphinxRecognizer,
  createTesseractOcr,
  createTextractOcr,
  createTranscribeRecognizer,
  type ExtractDeps,
  ExtractionError,
  extractText,
} from '../extract';

export class FileContentExtractor implements ContentExtractor {
  private readonly deps: ExtractDeps;

  constructor(config: Config, s3: S3Client) {
    this.deps = {
      ocr: config.extraction.ocr === 'textract' ? createTextractOcr({ client: new TextractClient({ region: config.region }) }) : createTesseractOcr(),
      speech:
        config.extraction.speech === 'transcribe'
          ? createTranscribeRecognizer({ transcribe: new TranscribeClient({ region: config.region }), s3, bucket: config.bucketName })
          : createPocketsphinxRecognizer({ timeoutMs: config.extraction.mediaTimeoutMs }),
      media: { timeoutMs: config.extraction.mediaTimeoutMs },
      pdf: { maxOcrPages: config.extraction.pdfMaxOcrPages },
    };
  }

  /** Stops the OCR and speech engines' workers (the local runtime does this when it stops). */
  async close(): Promise<void> {
    await this.deps.ocr.close?.();
    await this.deps.speech.close?.();
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
      const extracted = await extractText({ bytes, fileType: file.fileType, name: file.name, contentType }, this.deps);
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
      throw new FileProcessingError(error.message, { cause: error });
    }
  }
}
