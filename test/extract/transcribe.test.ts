/**
 * The Amazon Transcribe adapter against a local server speaking Transcribe's JSON protocol and S3's
 * REST protocol: staging, job start, polling, transcript from the bucket or from a served URL, clean-up.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTranscribeRecognizer,
  type ExtractDeps,
  ExtractionError,
  extractText,
  type TranscribeOptions,
} from '../../functions/adapters/extract';
import { fixture, input, unusedOcr } from './support/deps';
import { startFakeAws, type FakeAws, type JsonReply } from './support/fake-aws';

const TRANSCRIPT = {
  jobName: 'job',
  results: {
    transcripts: [{ transcript: 'The quick brown fox. Memory is the treasury of knowledge.' }],
    speaker_labels: { speakers: 2, segments: [{ speaker_label: 'spk_0' }, { speaker_label: 'spk_1' }] },
    items: [],
  },
};

interface JobState {
  polls: number;
  outcome: 'COMPLETED' | 'FAILED';
}

let server: FakeAws;
const jobs = new Map<string, JobState & { input: Record<string, unknown> }>();
let outcome: JobState['outcome'] = 'COMPLETED';

beforeAll(async () => {
  server = await startFakeAws((target, body) => transcribeService(target, body));
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  outcome = 'COMPLETED';
  server.calls.length = 0;
  server.s3Requests.length = 0;
});

function transcribeService(target: string, body: Record<string, unknown>): JsonReply {
  const name = String(body['TranscriptionJobName']);
  if (target === 'Transcribe.StartTranscriptionJob') {
    jobs.set(name, { polls: 0, outcome, input: body });
    return { body: { TranscriptionJob: { TranscriptionJobName: name, TranscriptionJobStatus: 'IN_PROGRESS' } } };
  }
  const job = jobs.get(name);
  if (!job) return { status: 400, body: { __type: 'NotFoundException', message: 'no such job' } };
  if (target === 'Transcribe.DeleteTranscriptionJob') return { body: {} };
  job.polls += 1;
  if (job.polls < 2) return { body: { TranscriptionJob: { TranscriptionJobName: name, TranscriptionJobStatus: 'IN_PROGRESS' } } };
  if (job.outcome === 'FAILED') {
    return {
      body: {
        TranscriptionJob: {
          TranscriptionJobName: name,
          TranscriptionJobStatus: 'FAILED',
          FailureReason: 'The media format is invalid.',
        },
      },
    };
  }
  return {
    body: {
      TranscriptionJob: {
        TranscriptionJobName: name,
        TranscriptionJobStatus: 'COMPLETED',
        Transcript: { TranscriptFileUri: deliver(name, job.input) },
      },
    },
  };
}

/** Puts the transcript where Transcribe would: the output bucket, or its own store served by URL. */
function deliver(name: string, job: Record<string, unknown>): string {
  const document = Buffer.from(JSON.stringify({ ...TRANSCRIPT, jobName: name }));
  if (typeof job['OutputBucketName'] === 'string') {
    const key = `${job['OutputBucketName']}/${String(job['OutputKey'])}`;
    server.objects.set(key, document);
    return `https://s3.us-east-1.amazonaws.com/${key}`;
  }
  server.objects.set(`service/${name}.json`, document);
  return `${server.endpoint}/served/service/${name}.json`;
}

function deps(overrides: Partial<TranscribeOptions> = {}): ExtractDeps {
  const connection = {
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  };
  const s3 = new S3Client({
    ...connection,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const recognizer = createTranscribeRecognizer({
    transcribe: new TranscribeClient(connection),
    s3,
    bucket: 'kmem-artefacts',
    pollIntervalMs: 1,
    ...overrides,
  });
  return { ocr: unusedOcr, speech: recognizer };
}

describe('Amazon Transcribe adapter', () => {
  it('stages the WAV, runs a job with speaker labels and reads the transcript from the bucket', async () => {
    const result = await extractText(input(fixture('speech.ogg'), 'audio', 'note.ogg'), deps());
    expect(result).toMatchObject({ kind: 'audio', numSpeakers: 2, warnings: [] });
    expect(result.text).toBe('The quick brown fox. Memory is the treasury of knowledge.');
    expect(result.lengthSeconds).toBeCloseTo(4.64, 1);

    const start = server.calls.find((call) => call.target === 'Transcribe.StartTranscriptionJob')?.input ?? {};
    const jobName = String(start['TranscriptionJobName']);
    expect(start).toMatchObject({
      LanguageCode: 'en-US',
      MediaFormat: 'wav',
      MediaSampleRateHertz: 16000,
      Media: { MediaFileUri: `s3://kmem-artefacts/transcribe/${jobName}.wav` },
      OutputBucketName: 'kmem-artefacts',
      OutputKey: `transcribe/${jobName}.json`,
      Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: 10 },
    });
    expect(server.s3Requests).toEqual([
      `PUT /kmem-artefacts/transcribe/${jobName}.wav`,
      `GET /kmem-artefacts/transcribe/${jobName}.json`,
      `DELETE /kmem-artefacts/transcribe/${jobName}.wav`,
      `DELETE /kmem-artefacts/transcribe/${jobName}.json`,
    ]);
    expect(server.calls.map((call) => call.target)).toEqual([
      'Transcribe.StartTranscriptionJob',
      'Transcribe.GetTranscriptionJob',
      'Transcribe.GetTranscriptionJob',
      'Transcribe.DeleteTranscriptionJob',
    ]);
  });

  it('fetches the transcript from the URL Transcribe serves when no output bucket is used', async () => {
    const result = await extractText(input(fixture('speech.ogg'), 'audio'), deps({ outputToBucket: false }));
    expect(result.text).toContain('treasury of knowledge');
    const start = server.calls.find((call) => call.target === 'Transcribe.StartTranscriptionJob')?.input ?? {};
    expect(start['OutputBucketName']).toBeUndefined();
  });

  it('reports a failed job with its reason, and still cleans up', async () => {
    outcome = 'FAILED';
    const error = await extractText(input(fixture('speech.ogg'), 'audio'), deps()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toBe('Amazon Transcribe could not transcribe the audio: The media format is invalid.');
    expect(server.s3Requests.filter((request) => request.startsWith('DELETE'))).toHaveLength(2);
    expect(server.calls.at(-1)?.target).toBe('Transcribe.DeleteTranscriptionJob');
  });

  it('gives up after its time limit with a retryable error', async () => {
    const error = await extractText(input(fixture('speech.ogg'), 'audio'), deps({ timeoutMs: 0 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/did not finish the transcription in time/);
  });

  it('reports an unreachable service as retryable', async () => {
    const closed = new TranscribeClient({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 1,
    });
    const error = await extractText(input(fixture('speech.ogg'), 'audio'), deps({ transcribe: closed })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/^Amazon Transcribe failed to start a transcription job/);
  });
});
