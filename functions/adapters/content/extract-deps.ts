/** The extraction library's adapters as configuration chooses them: OCR, speech, tool and size limits. */
import type { S3Client } from '@aws-sdk/client-s3';
import { TextractClient } from '@aws-sdk/client-textract';
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import type { Config } from '../../config';
import {
  createPocketsphinxRecognizer,
  createTesseractOcr,
  createTextractOcr,
  createTranscribeRecognizer,
  type ExtractDeps,
} from '../extract';

export function createExtractDeps(config: Config, s3: S3Client): ExtractDeps {
  return {
    ocr: config.extraction.ocr === 'textract' ? createTextractOcr({ client: new TextractClient({ region: config.region }) }) : createTesseractOcr(),
    speech:
      config.extraction.speech === 'transcribe'
        ? createTranscribeRecognizer({ transcribe: new TranscribeClient({ region: config.region }), s3, bucket: config.bucketName })
        : createPocketsphinxRecognizer({ timeoutMs: config.extraction.mediaTimeoutMs }),
    media: { timeoutMs: config.extraction.mediaTimeoutMs },
    pdf: { maxOcrPages: config.extraction.pdfMaxOcrPages },
    limits: config.hostileInput.limits,
  };
}

/** Stops the OCR and speech engines' workers. */
export async function closeExtractDeps(deps: ExtractDeps): Promise<void> {
  await deps.ocr.close?.();
  await deps.speech.close?.();
}
