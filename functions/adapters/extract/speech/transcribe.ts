/**
 * Amazon Transcribe as a speech recogniser (see transcribe-job.ts for one job's steps). The AWS SDK
 * command modules load at the first transcription, not when the library is imported.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { LanguageCode, TranscribeClient } from '@aws-sdk/client-transcribe';
import type { SpeechRecognizer } from '../types';

export interface TranscribeOptions {
  transcribe: TranscribeClient;
  s3: S3Client;
  /** Bucket where the audio is staged for the job. */
  bucket: string;
  /** Key prefix for staged audio and transcripts (default `transcribe/`). */
  prefix?: string;
  /** Write transcripts to `bucket` (default true); false lets Transcribe keep them and serve a URL. */
  outputToBucket?: boolean;
  /** Default `en-US`. */
  languageCode?: LanguageCode;
  maxSpeakers?: number;
  pollIntervalMs?: number;
  /** Longest to wait for a job (default 14 minutes, inside a Lambda's 15). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  fetchTranscript?: typeof fetch;
}

/** The recogniser's name, recorded as the adapter that built a memory. */
export const TRANSCRIBE_NAME = 'amazon-transcribe';

export function createTranscribeRecognizer(options: TranscribeOptions): SpeechRecognizer {
  return {
    name: TRANSCRIBE_NAME,
    transcribe: async (audio) => (await import('./transcribe-job')).transcribeWithJob(options, audio),
  };
}
