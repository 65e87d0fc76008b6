/** Settings to the extraction engines: the OCR engine and the speech recogniser. */
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

/** The configured OCR engine: tesseract.js with its bundled English model, or Amazon Textract. */
export function ocrOf(config: Pick<Config, 'extraction' | 'region'>): OcrEngine {
  return config.extraction.ocr === 'textract'
    ? createTextractOcr({ client: new TextractClient({ region: config.region }) })
    : createTesseractOcr();
}

/** The configured speech recogniser: pocketsphinx, or Amazon Transcribe (reading the media from `s3`). */
export function speechOf(config: Pick<Config, 'extraction' | 'region' | 'bucketName'>, s3: S3Client): SpeechRecognizer {
  return config.extraction.speech === 'transcribe'
    ? createTranscribeRecognizer({ transcribe: new TranscribeClient({ region: config.region }), s3, bucket: config.bucketName })
    : createPocketsphinxRecognizer({ timeoutMs: config.extraction.mediaTimeoutMs });
}
