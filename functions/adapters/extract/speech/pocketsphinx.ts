/**
 * The offline speech recogniser: CMU PocketSphinx from Debian (`pocketsphinx_continuous` with the
 * US English model of `pocketsphinx-en-us`), run on a temp WAV file. No model is downloaded at run
 * time; when the package is missing, transcription fails with a reason that says how to install it.
 */
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import { runProcess } from '../media/ffmpeg';
import type { PcmWav, SpeechRecognizer, SpeechResult } from '../types';

export interface PocketsphinxOptions {
  /** The recogniser program, a path or a name on PATH (default `pocketsphinx_continuous`). */
  binary?: string;
  /** The acoustic model, language model and dictionary (default Debian's `/usr/share/pocketsphinx/model/en-us`). */
  modelDir?: string;
  /** Longest a transcription may take (default 10 minutes). */
  timeoutMs?: number;
}

const POCKETSPHINX_INSTALL_HINT =
  'offline speech recognition is not installed: run `scripts/install-speech.sh` as root ' +
  '(it installs the Debian packages pocketsphinx and pocketsphinx-en-us), or configure Amazon Transcribe';

const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export function createPocketsphinxRecognizer(options: PocketsphinxOptions = {}): SpeechRecognizer {
  const binary = options.binary ?? 'pocketsphinx_continuous';
  const modelDir = options.modelDir ?? DEFAULT_MODEL_DIR;
  const model = {
    hmm: join(modelDir, 'en-us'),
    lm: join(modelDir, 'en-us.lm.bin'),
    dict: join(modelDir, 'cmudict-en-us.dict'),
  };
  return {
    name: 'pocketsphinx-0.8/en-us',
    async transcribe(audio: PcmWav): Promise<SpeechResult> {
      await requireModel(model);
      const directory = await mkdtemp(join(tmpdir(), 'kmem-speech-'));
      try {
        const wavPath = join(directory, 'speech.wav');
        await writeFile(wavPath, audio.bytes);
        const args = ['-infile', wavPath, '-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict, '-logfn', '/dev/null'];
        const text = await run(binary, args, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        return { text };
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

async function requireModel(model: Record<'hmm' | 'lm' | 'dict', string>): Promise<void> {
  for (const path of [join(model.hmm, 'mdef'), model.lm, model.dict]) {
    try {
      await access(path);
    } catch (error) {
      throw new ExtractionError(`${POCKETSPHINX_INSTALL_HINT} (missing ${path})`, { cause: error });
    }
  }
}

/** One hypothesis per utterance on stdout, joined one per line. */
async function run(binary: string, args: string[], timeoutMs: number): Promise<string> {
  let result: Awaited<ReturnType<typeof runProcess>>;
  try {
    result = await runProcess(binary, args, { timeoutMs, label: 'pocketsphinx' });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ExtractionError(
      missing ? `${POCKETSPHINX_INSTALL_HINT} (${binary} was not found)` : `pocketsphinx could not start: ${describeError(error)}`,
      { cause: error },
    );
  }
  if (result.exitCode !== 0) {
    throw new ExtractionError(
      `pocketsphinx failed (exit code ${String(result.exitCode)}): ${result.stderr.trim().split('\n').pop() ?? ''}`,
    );
  }
  return result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}
