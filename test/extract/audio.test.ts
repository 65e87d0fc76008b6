/**
 * Audio through extractText: conversion to 16 kHz mono WAV with the bundled ffmpeg, length, silence and
 * corruption checks, and speech recognised offline by PocketSphinx (when scripts/install-speech.sh ran).
 */
import { describe, expect, it } from 'vitest';
import {
  createPocketsphinxRecognizer,
  type ExtractDeps,
  ExtractionError,
  extractText,
  type PcmWav,
  type SpeechRecognizer,
} from '../../functions/adapters/extract';
import { fixture, input, pocketsphinxInstalled, unusedOcr, wordRecall } from './support/deps';
import { ffmpegMake } from './support/media';

/** What the fixture's voice says (flite, voice awb). */
export const SPOKEN = 'the quick brown fox jumps over the lazy dog. memory is the treasury of knowledge.';

const speech = fixture('speech.ogg');

/** A recogniser that records what it was given and answers with fixed text. */
function recordingRecognizer(text: string, numSpeakers?: number): SpeechRecognizer & { received: PcmWav[] } {
  const received: PcmWav[] = [];
  return {
    name: 'recording',
    received,
    transcribe: (audio) => {
      received.push(audio);
      return Promise.resolve({ text, ...(numSpeakers ? { numSpeakers } : {}) });
    },
  };
}

const failure = (promise: Promise<unknown>): Promise<ExtractionError> =>
  promise.then(
    () => {
      throw new Error('expected an ExtractionError');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ExtractionError);
      return error as ExtractionError;
    },
  );

describe('audio pipeline', () => {
  it('hands the recogniser 16 kHz mono WAV and reports the length', async () => {
    const recognizer = recordingRecognizer('hello there', 2);
    const result = await extractText(input(speech, 'audio', 'note.ogg', 'audio/ogg'), {
      ocr: unusedOcr,
      speech: recognizer,
    });
    expect(result).toMatchObject({ kind: 'audio', text: 'hello there', numSpeakers: 2, warnings: [] });
    expect(result.lengthSeconds).toBeCloseTo(4.64, 1);
    expect(result.audio).toBeUndefined();
    const [audio] = recognizer.received;
    expect(audio?.sampleRate).toBe(16_000);
    expect(Buffer.from(audio?.bytes ?? []).toString('latin1', 0, 4)).toBe('RIFF');
    expect(audio?.lengthSeconds).toBeCloseTo(4.64, 1);
  });

  it('takes an Ogg file of unknown type as audio when it has no picture', async () => {
    const result = await extractText(input(speech, 'other', 'upload'), {
      ocr: unusedOcr,
      speech: recordingRecognizer('x'),
    });
    expect(result.kind).toBe('audio');
  });

  it('fails on silent, empty and corrupt audio with reasons', async () => {
    const deps: ExtractDeps = { ocr: unusedOcr, speech: recordingRecognizer('never used') };
    const silent = await ffmpegMake(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '2', '{out}'], 'silence.wav');
    expect((await failure(extractText(input(silent, 'audio', 'silence.wav'), deps))).message).toMatch(
      /^the audio is silent: no speech was recognised/,
    );

    const headerOnly = await ffmpegMake(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '0', '{out}'], 'empty.wav');
    expect((await failure(extractText(input(headerOnly, 'audio', 'empty.wav'), deps))).message).toMatch(/^the audio is empty/);

    const corrupt = new Uint8Array([...Buffer.from('RIFF\u0024\u0000\u0000\u0000WAVEjunk'), ...new Array<number>(64).fill(7)]);
    expect((await failure(extractText(input(corrupt, 'audio', 'bad.wav'), deps))).message).toMatch(
      /^the audio or video is corrupt or in an unsupported format/,
    );
  });

  it('fails when the recogniser hears nothing', async () => {
    const deps: ExtractDeps = { ocr: unusedOcr, speech: recordingRecognizer('  ') };
    expect((await failure(extractText(input(speech, 'audio'), deps))).message).toBe('no speech was recognised in the audio');
  });
});

describe('PocketSphinx (offline)', () => {
  it('says how to install it when it is missing', async () => {
    const missingBinary = createPocketsphinxRecognizer({ binary: '/nonexistent/pocketsphinx_continuous' });
    const missingModel = createPocketsphinxRecognizer({ modelDir: '/nonexistent/model' });
    for (const recognizer of [missingBinary, missingModel]) {
      const error = await failure(extractText(input(speech, 'audio'), { ocr: unusedOcr, speech: recognizer }));
      expect(error.message).toMatch(/^offline speech recognition is not installed: run `scripts\/install-speech.sh` as root/);
    }
  });

  it.skipIf(!pocketsphinxInstalled())('recognises the spoken sentence (Ogg/Opus and WAV)', async () => {
    const deps: ExtractDeps = { ocr: unusedOcr, speech: createPocketsphinxRecognizer() };
    const fromOgg = await extractText(input(speech, 'audio', 'speech.ogg'), deps);
    expect(fromOgg.kind).toBe('audio');
    expect(wordRecall(fromOgg.text, SPOKEN)).toBeGreaterThanOrEqual(0.75);

    const wav = await ffmpegMake(['-i', '{in}', '-ar', '44100', '-ac', '2', '{out}'], 'speech.wav', speech);
    const fromWav = await extractText(input(wav, 'audio', 'speech.wav'), deps);
    expect(wordRecall(fromWav.text, SPOKEN)).toBeGreaterThanOrEqual(0.75);
    expect(fromWav.lengthSeconds).toBeCloseTo(4.64, 1);
  });
});
