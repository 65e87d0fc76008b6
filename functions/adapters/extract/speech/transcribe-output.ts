/**
 * Reads an Amazon Transcribe transcript JSON (from S3, or from the URL the service serves) into text
 * and a speaker count.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ExtractionError, serviceError } from '../errors';
import { describeError } from '../../wording';
import type { SpeechResult } from '../types';

export type TranscriptLocation =
  | { kind: 'bucket'; s3: S3Client; bucket: string; key: string }
  | { kind: 'url'; url: string; fetch: typeof fetch };

interface TranscriptDocument {
  results?: {
    transcripts?: Array<{ transcript?: string }>;
    speaker_labels?: { speakers?: number | string; segments?: Array<{ speaker_label?: string }> };
  };
}

export async function readTranscript(location: TranscriptLocation): Promise<SpeechResult> {
  const body = location.kind === 'bucket' ? await readFromBucket(location) : await readFromUrl(location.url, location.fetch);
  let document: TranscriptDocument;
  try {
    document = JSON.parse(body) as TranscriptDocument;
  } catch (error) {
    throw new ExtractionError('Amazon Transcribe returned a transcript that is not valid JSON', { cause: error });
  }
  return parseTranscript(document);
}

function parseTranscript(document: TranscriptDocument): SpeechResult {
  const results = document.results ?? {};
  const text = (results.transcripts ?? []).map((part) => part.transcript ?? '').join('\n');
  const numSpeakers = speakerCount(results.speaker_labels);
  return { text, ...(numSpeakers !== undefined ? { numSpeakers } : {}) };
}

function speakerCount(labels: NonNullable<TranscriptDocument['results']>['speaker_labels']): number | undefined {
  if (!labels) return undefined;
  const declared = Number(labels.speakers);
  if (Number.isInteger(declared) && declared > 0) return declared;
  const distinct = new Set((labels.segments ?? []).map((segment) => segment.speaker_label).filter(Boolean));
  return distinct.size > 0 ? distinct.size : undefined;
}

async function readFromBucket(location: { s3: S3Client; bucket: string; key: string }): Promise<string> {
  try {
    const object = await location.s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
    return (await object.Body?.transformToString('utf-8')) ?? '';
  } catch (error) {
    throw serviceError('Amazon Transcribe', 'deliver the transcript to S3', error);
  }
}

async function readFromUrl(url: string, fetchTranscript: typeof fetch): Promise<string> {
  if (!url) throw new ExtractionError('Amazon Transcribe finished but gave no transcript location');
  let response: Response;
  try {
    response = await fetchTranscript(url);
  } catch (error) {
    throw new ExtractionError(`the Amazon Transcribe transcript could not be fetched: ${describeError(error)}`, {
      cause: error,
      retryable: true,
    });
  }
  if (!response.ok) {
    throw new ExtractionError(`the Amazon Transcribe transcript could not be fetched (HTTP ${response.status})`, {
      retryable: response.status >= 500,
    });
  }
  return response.text();
}
