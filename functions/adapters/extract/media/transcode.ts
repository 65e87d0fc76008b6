/**
 * Audio and video files to 16 kHz mono 16-bit PCM WAV with ffmpeg, after a probe that says which
 * streams the file holds. Input goes through a temp file (withFfmpegInput: MP4s need seeking).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExtractionError } from '../errors';
import type { MediaToolOptions } from '../types';
import { FFMPEG_QUIET, runProcess, withFfmpegInput } from './ffmpeg';

const RECOGNITION_SAMPLE_RATE = 16_000;

export interface MediaStreams {
  hasAudio: boolean;
  /** A moving picture; cover art attached to an audio file does not count. */
  hasVideo: boolean;
  durationSeconds?: number;
}

export interface TranscodedMedia {
  streams: MediaStreams;
  wav: Uint8Array;
}

/** Probes `bytes` and, when it holds audio, converts the audio to WAV; `noAudio` gives the reason when not. */
export function transcodeToWav(
  bytes: Uint8Array,
  options: MediaToolOptions & { maxSeconds?: number },
  noAudio: (streams: MediaStreams) => string,
): Promise<TranscodedMedia> {
  return withFfmpegInput(bytes, 'media', options.ffmpegPath, async ({ ffmpeg, input, directory }) => {
    const output = join(directory, 'audio.wav');
    const streams = await probe(ffmpeg, input, options);
    if (!streams.hasAudio) throw new ExtractionError(noAudio(streams));
    await convert(ffmpeg, input, output, options);
    return { streams, wav: new Uint8Array(await readFile(output)) };
  });
}

async function probe(ffmpeg: string, input: string, options: MediaToolOptions): Promise<MediaStreams> {
  const args = ['-hide_banner', '-nostdin', '-i', input];
  const { stderr } = await runProcess(ffmpeg, args, { timeoutMs: options.timeoutMs, label: 'ffmpeg' });
  if (!/^Input #0/m.test(stderr)) throw new ExtractionError(unreadableReason(stderr));
  const streamLines = stderr.split('\n').filter((line) => /^\s*Stream #\d+:\d+/.test(line));
  const duration = stderr.match(/Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/);
  return {
    hasAudio: streamLines.some((line) => / Audio: /.test(line)),
    hasVideo: streamLines.some((line) => / Video: /.test(line) && !/\(attached pic\)/.test(line)),
    ...(duration ? { durationSeconds: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) } : {}),
  };
}

/**
 * Decodes the first audio stream to WAV; with `maxSeconds`, stops one second past it, so the WAV held in
 * memory stays bounded whatever the file declares (the caller refuses audio that reached the limit).
 */
async function convert(ffmpeg: string, input: string, output: string, options: MediaToolOptions & { maxSeconds?: number }): Promise<void> {
  const args = [
    ...FFMPEG_QUIET,
    '-i',
    input,
    ...(options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds + 1)]),
    '-vn',
    '-sn',
    '-dn',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(RECOGNITION_SAMPLE_RATE),
    '-c:a',
    'pcm_s16le',
    '-map_metadata',
    '-1',
    '-bitexact',
    '-f',
    'wav',
    output,
  ];
  const { exitCode, stderr } = await runProcess(ffmpeg, args, { timeoutMs: options.timeoutMs, label: 'ffmpeg' });
  if (exitCode !== 0) throw new ExtractionError(unreadableReason(stderr));
}

function unreadableReason(stderr: string): string {
  const detail = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('ffmpeg version') && !/^(built with|configuration|lib)/.test(line))
    .pop();
  const cause = detail ? ` (ffmpeg: ${detail.replace(/^.*?: /, '')})` : '';
  return `the audio or video is corrupt or in an unsupported format${cause}`;
}
