/** Makes media fixtures at test time with the bundled ffmpeg: format conversions, silence, videos. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FFMPEG_QUIET, ffmpegExecutable, runProcess } from '../../../functions/adapters/extract/media/ffmpeg';

/**
 * Runs ffmpeg with `{in}` and `{out}` in `args` replaced by temp files (the input holding `input`,
 * when given) and returns the output's bytes.
 */
export async function ffmpegMake(args: string[], outputName: string, input?: Uint8Array): Promise<Uint8Array> {
  const ffmpeg = await ffmpegExecutable();
  const directory = await mkdtemp(join(tmpdir(), 'kmem-fixture-'));
  try {
    const inputPath = join(directory, 'input');
    const outputPath = join(directory, outputName);
    if (input) await writeFile(inputPath, input);
    const resolved = args.map((arg) => (arg === '{in}' ? inputPath : arg === '{out}' ? outputPath : arg));
    const { exitCode, stderr } = await runProcess(ffmpeg, [...FFMPEG_QUIET, ...resolved]);
    if (exitCode !== 0) throw new Error(`ffmpeg fixture failed: ${stderr}`);
    return new Uint8Array(await readFile(outputPath));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
