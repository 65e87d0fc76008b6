/** Extraction settings to the extraction engines: the OCR engine and the speech recogniser. */
import type { S3Client } from '@aws-sdk/client-s3';
import { TextractClient } from '@aws-sdk/client-textract';
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import type { Config } from '../../config';
import {
  createPocketsphinxRecognizer,
  createTesseractOcr,
  createTextractOcr,
  createTranscribeRecognizer,
  type OcrEngine,
  type SpeechRecognizer,
} from '../extract';
import type { ProviderContext } from './once';

type ExtractionSettings = Config['extraction'];

/** The configured OCR engine: tesseract.js with its bundled English model, or Amazon Textract. */
export function ocrFromSettings(settings: Pick<ExtractionSettings, 'ocr'>, context: ProviderContext): OcrEngine {
  return settings.ocr === 'textract' ? createTextractOcr({ client: new TextractClient({ region: context.region }) }) : createTesseractOcr();
}

/** The configured speech recogniser: pocketsphinx, or Amazon Transcribe (reading the media from `bucket` through `s3`). */
export function speechFromSettings(
  settings: Pick<ExtractionSettings, 'speech' | 'mediaTimeoutMs'>,
  context: ProviderContext & { readonly s3: S3Client; readonly bucket: string },
): SpeechRecognizer {
  return settings.speech === 'transcribe'
    ? createTranscribeRecognizer({ transcribe: new TranscribeClient({ region: context.region }), s3: context.s3, bucket: context.bucket })
    : createPocketsphinxRecognizer({ timeoutMs: settings.mediaTimeoutMs });
}
