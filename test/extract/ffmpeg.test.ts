/** The bundled ffmpeg made executable at first use, and the process runner's time limit. */
import { chmod, copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractionError } from '../../functions/adapters/extract';
import { ffmpegExecutable, runProcess } from '../../functions/adapters/extract/media/ffmpeg';

describe('ffmpeg', () => {
  it('makes a binary that lost its executable bit executable', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'kmem-ffmpeg-test-'));
    try {
      const copy = join(directory, 'ffmpeg');
      await copyFile(await ffmpegExecutable(), copy);
      await chmod(copy, 0o644);
      expect(await ffmpegExecutable(copy)).toBe(copy);
      expect((await stat(copy)).mode & 0o111).toBe(0o111);
      const { exitCode, stdout } = await runProcess(copy, ['-hide_banner', '-version']);
      expect(exitCode).toBe(0);
      expect(stdout).toMatch(/^ffmpeg version/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stops a process that outlives its time limit', async () => {
    const error = await runProcess('sleep', ['5'], { timeoutMs: 100, label: 'sleep' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toBe('sleep took longer than 0.1 s and was stopped');
  });
});
