/**
 * Reads the 16-bit PCM WAV files ffmpeg writes for recognition: format, duration and loudness,
 * so empty and silent audio fail with a reason before any recogniser runs.
 */

export interface PcmInfo {
  sampleRate: number;
  channels: number;
  lengthSeconds: number;
  /** Largest absolute sample, 0 to 1. */
  peak: number;
  /** Root mean square of the samples, 0 to 1. */
  rms: number;
}

/** Parses a RIFF/WAVE file of 16-bit PCM; null when it is not one. */
export function readPcmWav(bytes: Uint8Array): PcmInfo | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || tag(view, 0) !== 'RIFF' || tag(view, 8) !== 'WAVE') return null;
  let format: { channels: number; sampleRate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= view.byteLength; ) {
    const id = tag(view, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16) {
      format = {
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    }
    if (id === 'data' && format && format.bits === 16 && format.channels > 0 && format.sampleRate > 0) {
      const length = Math.min(size, view.byteLength - body) & ~1;
      return {
        ...loudness(view, body, length),
        sampleRate: format.sampleRate,
        channels: format.channels,
        lengthSeconds: length / 2 / format.channels / format.sampleRate,
      };
    }
    at = body + size + (size % 2);
  }
  return null;
}

function loudness(view: DataView, start: number, length: number): { peak: number; rms: number } {
  let peak = 0;
  let sumOfSquares = 0;
  const count = length / 2;
  for (let at = start; at < start + length; at += 2) {
    const sample = view.getInt16(at, true) / 32768;
    const magnitude = Math.abs(sample);
    if (magnitude > peak) peak = magnitude;
    sumOfSquares += sample * sample;
  }
  return { peak, rms: count > 0 ? Math.sqrt(sumOfSquares / count) : 0 };
}

function tag(view: DataView, at: number): string {
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
}
