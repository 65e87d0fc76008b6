/**
 * One Amazon Transcribe batch job for one recording: stage the WAV in S3, start the job with speaker
 * labels, poll until it ends, read the transcript, and remove what was staged (a failed removal is a warning).
 */
import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  DeleteTranscriptionJobCommand,
  GetTranscriptionJobCommand,
  StartTranscriptionJobCommand,
  type TranscriptionJob,
} from '@aws-sdk/client-transcribe';
import { ExtractionError, serviceError } from '../errors';
import type { PcmWav, SpeechResult } from '../types';
import type { TranscribeOptions } from './transcribe';
import { readTranscript, type TranscriptLocation } from './transcribe-output';

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function transcribeWithJob(options: TranscribeOptions, audio: PcmWav): Promise<SpeechResult> {
  const jobName = `kmem-${randomUUID()}`;
  const prefix = options.prefix ?? 'transcribe/';
  const mediaKey = `${prefix}${jobName}.wav`;
  const outputKey = options.outputToBucket === false ? undefined : `${prefix}${jobName}.json`;
  const warnings: string[] = [];
  await call('stage the audio in S3', () =>
    options.s3.send(new PutObjectCommand({ Bucket: options.bucket, Key: mediaKey, Body: audio.bytes, ContentType: 'audio/wav' })),
  );
  let jobStarted = false;
  try {
    await call('start a transcription job', () => options.transcribe.send(startCommand(options, jobName, mediaKey, outputKey, audio)));
    jobStarted = true;
    const job = await waitForJob(options, jobName);
    const location: TranscriptLocation = outputKey
      ? { kind: 'bucket', s3: options.s3, bucket: options.bucket, key: outputKey }
      : { kind: 'url', url: job.Transcript?.TranscriptFileUri ?? '', fetch: options.fetchTranscript ?? fetch };
    // cleanUp (below) may still add to `warnings`, the same array the result holds
    return { ...(await readTranscript(location)), warnings };
  } finally {
    await cleanUp(options, { jobName: jobStarted ? jobName : undefined, keys: [mediaKey, ...(outputKey ? [outputKey] : [])] }, warnings);
  }
}

function startCommand(
  options: TranscribeOptions,
  jobName: string,
  mediaKey: string,
  outputKey: string | undefined,
  audio: PcmWav,
): StartTranscriptionJobCommand {
  return new StartTranscriptionJobCommand({
    TranscriptionJobName: jobName,
    LanguageCode: options.languageCode ?? 'en-US',
    MediaFormat: 'wav',
    MediaSampleRateHertz: audio.sampleRate,
    Media: { MediaFileUri: `s3://${options.bucket}/${mediaKey}` },
    ...(outputKey ? { OutputBucketName: options.bucket, OutputKey: outputKey } : {}),
    Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: options.maxSpeakers ?? 10 },
  });
}

async function waitForJob(options: TranscribeOptions, jobName: string): Promise<TranscriptionJob> {
  const sleep = options.sleep ?? sleepFor;
  const deadline = Date.now() + (options.timeoutMs ?? 14 * 60_000);
  for (;;) {
    const { TranscriptionJob: job } = await call('check the transcription job', () =>
      options.transcribe.send(new GetTranscriptionJobCommand({ TranscriptionJobName: jobName })),
    );
    const status = job?.TranscriptionJobStatus;
    if (job && status === 'COMPLETED') return job;
    if (status === 'FAILED') {
      throw new ExtractionError(`Amazon Transcribe could not transcribe the audio: ${job?.FailureReason ?? 'no reason given'}`);
    }
    if (Date.now() >= deadline) {
      throw new ExtractionError('Amazon Transcribe did not finish the transcription in time', { retryable: true });
    }
    await sleep(options.pollIntervalMs ?? 5_000);
  }
}

/** Removes the job and staged objects; a failure here is a warning, not a lost transcript. */
async function cleanUp(
  options: TranscribeOptions,
  staged: { jobName: string | undefined; keys: string[] },
  warnings: string[],
): Promise<void> {
  const tasks: Array<Promise<unknown>> = staged.keys.map((key) =>
    options.s3.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key })),
  );
  if (staged.jobName) {
    const jobName = staged.jobName;
    tasks.push(options.transcribe.send(new DeleteTranscriptionJobCommand({ TranscriptionJobName: jobName })));
  }
  const results = await Promise.allSettled(tasks);
  const failed = results.filter((result) => result.status === 'rejected').length;
  if (failed > 0) warnings.push(`Amazon Transcribe: ${failed} staged object(s) or job(s) could not be removed`);
}

async function call<T>(action: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw serviceError('Amazon Transcribe', action, error);
  }
}
