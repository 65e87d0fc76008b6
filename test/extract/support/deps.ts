/** Fixtures and stand-in adapters shared by the extraction tests. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { DeclaredFileType, ExtractDeps, ExtractInput, OcrEngine, SpeechRecognizer } from '../../../functions/adapters/extract';

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

export function input(
  bytes: Uint8Array,
  fileType: DeclaredFileType = 'other',
  name = 'upload',
  contentType: string | null = null,
): ExtractInput {
  return { bytes, fileType, name, contentType };
}

/** An OCR engine for tests that must not reach OCR: it fails loudly if they do. */
export const unusedOcr: OcrEngine = {
  name: 'unused-ocr',
  formats: new Set(['png']),
  recognize: () => Promise.reject(new Error('OCR was not expected in this test')),
};

export const unusedSpeech: SpeechRecognizer = {
  name: 'unused-speech',
  transcribe: () => Promise.reject(new Error('speech recognition was not expected in this test')),
};

export const documentDeps: ExtractDeps = { ocr: unusedOcr, speech: unusedSpeech };

/** Whether Debian's pocketsphinx and its US English model are installed (scripts/install-speech.sh). */
export function pocketsphinxInstalled(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v pocketsphinx_continuous'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  return existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin');
}

/** Share of `expected` words found in `text` (case-insensitive), for recognisers that miss a few. */
export function wordRecall(text: string, expected: string): number {
  const found = new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const words = expected.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.filter((word) => found.has(word)).length / Math.max(1, words.length);
}
