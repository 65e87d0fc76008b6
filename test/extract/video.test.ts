/** Video through extractText: the audio track extracted to WAV (returned to store), then transcribed. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxRecognizer, ExtractionError, extractText, type SpeechRecognizer } from '../../functions/adapters/extract';
import { readPcmWav } from '../../functions/adapters/extract/media/wav';
import { fixture, input, pocketsphinxInstalled, unusedOcr, wordRecall } from './support/deps';
import { ffmpegMake } from './support/media';

const SPOKEN = 'the quick brown fox jumps over the lazy dog. memory is the treasury of knowledge.';
const cannedSpeech: SpeechRecognizer = { name: 'canned', transcribe: () => Promise.resolve({ text: 'canned words' }) };

let mp4: Uint8Array;
let webm: Uint8Array;

beforeAll(async () => {
  const picture = ['-f', 'lavfi', '-i', 'color=c=navy:s=160x120:r=10', '-i', '{in}', '-t', '4.64'];
  mp4 = await ffmpegMake([...picture, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '{out}'], 'talk.mp4', fixture('speech.ogg'));
  webm = await ffmpegMake([...picture, '-c:v', 'libvpx', '-b:v', '50k', '-c:a', 'libopus', '{out}'], 'talk.webm', fixture('speech.ogg'));
});

describe('video', () => {
  it('returns the audio track as 16 kHz mono WAV with the length', async () => {
    const result = await extractText(input(mp4, 'video', 'talk.mp4', 'video/mp4'), {
      ocr: unusedOcr,
      speech: cannedSpeech,
    });
    expect(result).toMatchObject({ kind: 'video', text: 'canned words', warnings: [] });
    expect(result.lengthSeconds).toBeGreaterThan(4.4);
    expect(result.lengthSeconds).toBeLessThan(5);
    const wav = readPcmWav(result.audio ?? new Uint8Array());
    expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1 });
    expect(wav?.lengthSeconds).toBeGreaterThan(4.4);
  });

  it('tells a video from audio by its streams when the type is not declared', async () => {
    const result = await extractText(input(webm, 'other', 'upload'), { ocr: unusedOcr, speech: cannedSpeech });
    expect(result.kind).toBe('video');
    expect(result.audio).toBeInstanceOf(Uint8Array);
  });

  it('fails with a reason when the video has no audio track', async () => {
    const mute = await ffmpegMake(
      ['-f', 'lavfi', '-i', 'color=c=red:s=160x120:r=10', '-t', '1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '{out}'],
      'mute.mp4',
    );
    const error = await extractText(input(mute, 'video', 'mute.mp4'), { ocr: unusedOcr, speech: cannedSpeech }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toBe('the video has no audio track, so there is no speech to transcribe');
  });

  it.skipIf(!pocketsphinxInstalled())('transcribes the speech of a video offline', async () => {
    const result = await extractText(input(mp4, 'video', 'talk.mp4'), {
      ocr: unusedOcr,
      speech: createPocketsphinxRecognizer(),
    });
    expect(wordRecall(result.text, SPOKEN)).toBeGreaterThanOrEqual(0.75);
  });
});
