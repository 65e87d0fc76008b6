/** The extraction library's adapters as configuration chooses them: OCR, speech, tool and size limits. */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import type { ExtractDeps } from '../extract';
import { ocrFromSettings, speechFromSettings } from '../providers/extraction-from-settings';

export function createExtractDeps(config: Config, s3: S3Client): ExtractDeps {
  return {
    ocr: ocrFromSettings(config.extraction, config),
    speech: speechFromSettings(config.extraction, { region: config.region, s3, bucket: config.bucketName }),
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
