/**
 * The ffmpeg binary @ffmpeg-installer ships, made executable at first use (npm here skips install
 * scripts, and Lambda's code directory is read-only, so it may be copied to the temp dir first), and
 * a runner with a time limit that keeps the tail of stderr for error reasons, and the temp folder every
 * conversion reads its input from (MP4s need seeking, so input goes through a file, removed afterwards).
 */
import { spawn } from 'node:child_process';
import { access, chmod, copyFile, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const STDERR_TAIL_BYTES = 16_384;

const resolved = new Map<string, Promise<string>>();

/** Every conversion's opening arguments: no banner, no stdin, errors only, overwrite the output. */
export const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'] as const;

/** Where one conversion runs: the ffmpeg to call, its input file, and the folder for its output. */
export interface FfmpegRun {
  ffmpeg: string;
  input: string;
  directory: string;
}

/** Runs `work` with `bytes` written to a fresh temp folder (named after `prefix`), which is removed afterwards. */
export async function withFfmpegInput<T>(
  bytes: Uint8Array,
  prefix: string,
  ffmpegPath: string | undefined,
  work: (run: FfmpegRun) => Promise<T>,
): Promise<T> {
  const ffmpeg = await ffmpegExecutable(ffmpegPath);
  const directory = await mkdtemp(join(tmpdir(), `kmem-${prefix}-`));
  try {
    const input = join(directory, 'input');
    await writeFile(input, bytes);
    return await work({ ffmpeg, input, directory });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** An executable path to ffmpeg: `override`, or the bundled binary. */
export function ffmpegExecutable(override?: string): Promise<string> {
  const key = override ?? '';
  let path = resolved.get(key);
  if (!path) {
    path = makeExecutable(override ?? bundledFfmpegPath());
    path.catch(() => resolved.delete(key)); // try again on the next call
    resolved.set(key, path);
  }
  return path;
}

function bundledFfmpegPath(): string {
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return installer.path;
  } catch (error) {
    throw new ExtractionError(`audio and video need ffmpeg, and the bundled one is missing (${describeError(error)})`, {
      cause: error,
    });
  }
}

async function makeExecutable(path: string): Promise<string> {
  if (await isExecutable(path)) return path;
  try {
    await chmod(path, 0o755);
    return path;
  } catch {
    // a read-only file system (Lambda's /var/task): run a copy from the temp dir instead
  }
  const copy = join(tmpdir(), 'kmem-ffmpeg');
  try {
    if (!(await isExecutable(copy))) {
      await copyFile(path, copy);
      await chmod(copy, 0o755);
    }
    return copy;
  } catch (error) {
    throw new ExtractionError(`ffmpeg at ${path} is not executable and could not be made so`, { cause: error });
  }
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

export interface ProcessResult {
  exitCode: number | null;
  stdout: string;
  /** The last 16 KB of standard error. */
  stderr: string;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Names the program in reasons ("ffmpeg took longer than..."). */
  label?: string;
}

/** Runs `command` without a shell; rejects with an ExtractionError on spawn failure or time-out. */
export function runProcess(command: string, args: string[], options: RunOptions = {}): Promise<ProcessResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const label = options.label ?? command;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      if (timedOut) reject(new ExtractionError(`${label} took longer than ${seconds(timeoutMs)} s and was stopped`, { refused: true }));
      else resolve({ exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    });
  });
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}
