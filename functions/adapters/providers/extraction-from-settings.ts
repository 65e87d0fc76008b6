/**
 * Extraction settings to the extraction engines: the OCR engine and the speech recogniser. The Amazon
 * Textract and Transcribe SDK clients load at the engine's first use, not when a worker starts.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import { loadOnce } from '../load-once';
import {
  createPocketsphinxRecognizer,
  createTesseractOcr,
  createTextractOcr,
  createTranscribeRecognizer,
  type OcrEngine,
  type SpeechRecognizer,
  TEXTRACT_FORMATS,
  TEXTRACT_NAME,
  TRANSCRIBE_NAME,
} from '../extract';
import type { ProviderContext } from './once';

type ExtractionSettings = Config['extraction'];

/** The configured OCR engine: tesseract.js with its bundled English model, or Amazon Textract. */
export function ocrFromSettings(settings: Pick<ExtractionSettings, 'ocr'>, context: ProviderContext): OcrEngine {
  return settings.ocr === 'textract' ? textractOcr(context.region) : createTesseractOcr();
}

/** Amazon Textract, its client made at the first image. */
function textractOcr(region: string): OcrEngine {
  const engine = loadOnce(async () => {
    const { TextractClient } = await import('@aws-sdk/client-textract');
    return createTextractOcr({ client: new TextractClient({ region }) });
  });
  return { name: TEXTRACT_NAME, formats: TEXTRACT_FORMATS, recognize: async (image) => (await engine()).recognize(image) };
}

/** The configured speech recogniser: pocketsphinx, or Amazon Transcribe (reading the media from `bucket` through `s3`). */
export function speechFromSettings(
  settings: Pick<ExtractionSettings, 'speech' | 'mediaTimeoutMs'>,
  context: ProviderContext & { readonly s3: S3Client; readonly bucket: string },
): SpeechRecognizer {
  return settings.speech === 'transcribe'
    ? transcribeRecognizer(context)
    : createPocketsphinxRecognizer({ timeoutMs: settings.mediaTimeoutMs });
}

/** Amazon Transcribe, its client made at the first recording. */
function transcribeRecognizer(context: ProviderContext & { readonly s3: S3Client; readonly bucket: string }): SpeechRecognizer {
  const recognizer = loadOnce(async () => {
    const { TranscribeClient } = await import('@aws-sdk/client-transcribe');
    return createTranscribeRecognizer({
      transcribe: new TranscribeClient({ region: context.region }),
      s3: context.s3,
      bucket: context.bucket,
    });
  });
  return { name: TRANSCRIBE_NAME, transcribe: async (audio) => (await recognizer()).transcribe(audio) };
}
