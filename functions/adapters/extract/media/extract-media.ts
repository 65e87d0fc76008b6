/**
 * Audio and video: the audio track as 16 kHz mono WAV, checked for emptiness and silence, then
 * transcribed by the injected speech recogniser. A video also returns the WAV, to store.
 */
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import { limitsOf } from '../limits';
import type { ExtractDeps, Extracted } from '../types';
import { transcodeToWav, type MediaStreams } from './transcode';
import { readPcmWav, type PcmInfo } from './wav';

/** Shorter audio than this counts as empty. */
const MIN_AUDIO_SECONDS = 0.1;
/** A peak below this (about -50 dBFS) counts as silence. */
const SILENCE_PEAK = 0.003;

/** What the caller knows: `either` lets the streams decide (an MP4 may be a song or a film). */
export type MediaIntent = 'audio' | 'video' | 'either';

export async function extractMedia(bytes: Uint8Array, intent: MediaIntent, deps: ExtractDeps): Promise<Extracted> {
  const maxSeconds = limitsOf(deps).maxMediaSeconds;
  const tools = { ...deps.media, maxSeconds };
  const { streams, wav } = await transcodeToWav(bytes, tools, (found) => noAudioReason(found, intent));
  const kind = intent === 'video' || (intent === 'either' && streams.hasVideo) ? 'video' : 'audio';
  const subject = kind === 'video' ? "the video's audio" : 'the audio';
  const pcm = readPcmWav(wav);
  if (pcm && pcm.lengthSeconds > maxSeconds) {
    throw new ExtractionError(`${subject} lasts more than ${formatMinutes(maxSeconds)}, the longest transcribed`, {
      refused: true,
    });
  }
  if (!pcm || pcm.lengthSeconds < MIN_AUDIO_SECONDS) {
    throw new ExtractionError(`${subject} is empty (no sound to transcribe)`);
  }
  if (pcm.peak < SILENCE_PEAK) throw new ExtractionError(`${subject} is silent: no speech was recognised in it`);
  // The decoded audio's length is exact; a video lasts as long as its container says (the picture may outlast sound).
  const lengthSeconds = roundSeconds(kind === 'video' ? (streams.durationSeconds ?? pcm.lengthSeconds) : pcm.lengthSeconds);
  const result = await recognise(deps, wav, pcm);
  const text = tidyText(result.text);
  if (visibleLength(text) === 0) throw new ExtractionError(`no speech was recognised in ${subject}`);
  return {
    text,
    kind,
    lengthSeconds,
    ...(result.numSpeakers !== undefined ? { numSpeakers: result.numSpeakers } : {}),
    ...(kind === 'video' ? { audio: wav } : {}),
    warnings: result.warnings ?? [],
  };
}

async function recognise(deps: ExtractDeps, wav: Uint8Array, pcm: PcmInfo): ReturnType<ExtractDeps['speech']['transcribe']> {
  try {
    return await deps.speech.transcribe({ bytes: wav, sampleRate: pcm.sampleRate, lengthSeconds: pcm.lengthSeconds });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`speech recognition (${deps.speech.name}) failed: ${describeError(error)}`, {
      cause: error,
    });
  }
}

function noAudioReason(streams: MediaStreams, intent: MediaIntent): string {
  if (streams.hasVideo) return 'the video has no audio track, so there is no speech to transcribe';
  return intent === 'video' ? 'the file holds neither video nor audio' : 'the file holds no audio stream';
}

function roundSeconds(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

/** `30 minutes`, `90 seconds`. */
function formatMinutes(seconds: number): string {
  if (seconds === 60) return 'a minute';
  return seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;
}
