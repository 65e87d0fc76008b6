/**
 * What a user runs: `npx cdk synth` in a clean copy of the repository (its tracked files; the installed
 * node_modules linked in for the project's own packages), with cdk.json's context and nothing skipped, so
 * the worker's runtime modules are really installed by the synth's bundling. The worker's asset must hold
 * the Lambda platform's binaries (the canvas addon and ffmpeg for its architecture, the OCR model) and no
 * other platform's, every API function's asset must stay under 2 MB, and the lock file must be untouched.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_SIZE_LIMIT, WORKER_ARCHITECTURE } from '../../lib/constructs/bundling';
import { REPO_ROOT } from '../../lib/paths';

const SYNTH_TIMEOUT_MS = 8 * 60_000;
/** Lambda's limit on a function's unzipped code (bytes). */
const LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024;

interface LambdaResource {
  Metadata?: Record<string, unknown>;
  Properties: { Architectures?: string[]; Environment?: { Variables?: Record<string, unknown> } };
}

let copy: string;
let synth: { status: number | null; output: string; seconds: number };
let functions: { service: string; architecture: string; assetDir: string }[];

beforeAll(async () => {
  copy = cleanCopy();
  const started = Date.now();
  synth = { ...(await run('npx', ['cdk', 'synth', '--quiet'], copy)), seconds: (Date.now() - started) / 1000 };
  functions = synth.status === 0 ? lambdaFunctions(join(copy, 'cdk.out')) : [];
}, SYNTH_TIMEOUT_MS + 60_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npx cdk synth from a clean copy', () => {
  it('exits 0', () => {
    expect(synth.status, failureLines(synth.output)).toBe(0);
    console.log(`npx cdk synth: ${synth.seconds.toFixed(1)} s`);
  });

  it('leaves the lock file as it was', () => {
    expect(readFileSync(join(copy, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'));
  });

  it("ships the worker with the Lambda platform's canvas addon, ffmpeg and OCR model, and no other platform's", () => {
    const worker = functions.find((fn) => fn.service === 'kmem-worker');
    expect(worker?.architecture).toBe(WORKER_ARCHITECTURE === 'arm64' ? 'arm64' : 'x86_64');
    const modules = join(worker?.assetDir ?? '', 'node_modules');
    const cpu = WORKER_ARCHITECTURE;
    const addon = join(modules, '@napi-rs', `canvas-linux-${cpu}-gnu`, `skia.linux-${cpu}-gnu.node`);
    const ffmpeg = join(modules, '@ffmpeg-installer', `linux-${cpu}`, 'ffmpeg');
    expect(elfMachine(addon)).toBe(cpu);
    expect(elfMachine(ffmpeg)).toBe(cpu);
    expect(statSync(ffmpeg).mode & 0o111, 'ffmpeg is executable').not.toBe(0);
    expect(statSync(join(modules, '@tesseract.js-data', 'eng', '4.0.0_best_int', 'eng.traineddata.gz')).size).toBeGreaterThan(1_000_000);
    expect(existsSync(join(modules, 'tesseract.js', 'package.json'))).toBe(true);
    expect(existsSync(join(modules, 'tesseract.js-core', 'package.json'))).toBe(true);
    const platformPackages = [...readdirSync(join(modules, '@napi-rs')), ...readdirSync(join(modules, '@ffmpeg-installer'))];
    expect(platformPackages.sort()).toEqual(['canvas', `canvas-linux-${cpu}-gnu`, 'ffmpeg', `linux-${cpu}`]);
    const size = directorySize(worker?.assetDir ?? '');
    expect(size, 'Lambda takes at most 250 MB unzipped').toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
    console.log(`worker asset: ${(size / 1048576).toFixed(1)} MB; ${addon.slice(modules.length + 1)}, ${ffmpeg.slice(modules.length + 1)}`);
  });

  it("keeps every API function's asset (the zip Lambda receives) and its bundle under 2 MB", () => {
    const api = functions.filter((fn) => fn.service !== 'kmem-worker');
    expect(api.length).toBeGreaterThanOrEqual(7);
    for (const fn of api) {
      expect(zippedSize(fn.assetDir), fn.service).toBeLessThan(BUNDLE_SIZE_LIMIT);
      expect(statSync(join(fn.assetDir, 'index.mjs')).size, fn.service).toBeLessThan(BUNDLE_SIZE_LIMIT);
    }
    console.log(`API assets zipped (KB): ${api.map((fn) => `${fn.service} ${Math.round(zippedSize(fn.assetDir) / 1024)}`).join(', ')}`);
  });
});

/** The repository's files (tracked, plus new ones not ignored) copied to a temp dir, node_modules linked. */
function cleanCopy(): string {
  const target = mkdtempSync(join(tmpdir(), 'kmem-clean-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  for (const file of listed.split('\0').filter(Boolean)) {
    // deleted in the working tree, or a directory (a node_modules symlink that `node_modules/` does not ignore)
    if (!existsSync(join(REPO_ROOT, file)) || statSync(join(REPO_ROOT, file)).isDirectory()) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(target, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(target, 'node_modules'), 'dir');
  return target;
}

/** Runs a command without blocking the test worker; its status and output. */
async function run(command: string, args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd,
      env: userEnv(),
      timeout: SYNTH_TIMEOUT_MS,
      maxBuffer: 64 * 1048576,
    });
    return { status: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof failed.code === 'number' ? failed.code : null, output: `${failed.stdout ?? ''}\n${failed.stderr ?? ''}` };
  }
}

/** The environment of a user's shell: no test settings, no AWS account needed. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('KMEM_') && !name.startsWith('VITEST') && name !== 'NODE_ENV') env[name] = value;
  }
  return env;
}

/**
 * kmem's own Lambda functions in the synthesized stack (the CDK's providers, such as the console's bucket
 * deployment, have no Powertools service): their service, architecture and asset directory.
 */
function lambdaFunctions(outdir: string) {
  const templateFile = readdirSync(outdir).find((name) => name.endsWith('.template.json'));
  if (!templateFile) throw new Error(`no template in ${outdir}`);
  const template = JSON.parse(readFileSync(join(outdir, templateFile), 'utf8')) as {
    Resources: Record<string, { Type: string } & LambdaResource>;
  };
  return Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function' && resource.Metadata?.['aws:asset:path'])
    .map((resource) => ({
      service: String(resource.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME),
      architecture: resource.Properties.Architectures?.[0] ?? 'x86_64',
      assetDir: join(outdir, String(resource.Metadata?.['aws:asset:path'])),
    }))
    .filter((fn) => fn.service.startsWith('kmem-'));
}

/** The CPU an ELF file is built for (Node's names), read from its header. */
function elfMachine(file: string): string {
  const header = readFileSync(file).subarray(0, 20);
  expect(header.subarray(0, 4).toString('latin1'), `${file} is an ELF file`).toBe('\x7fELF');
  const machine = header.readUInt16LE(18);
  return machine === 0xb7 ? 'arm64' : machine === 0x3e ? 'x64' : `machine ${machine}`;
}

/** The lines of a failed synth that say why (npm's and the CDK's errors), not npm's usage text. */
function failureLines(output: string): string {
  return output
    .split('\n')
    .filter((line) => /Missing:|EUSAGE|Error|error:|Failed|\[kmem\]/.test(line) && !/^npm error +--/.test(line))
    .slice(0, 40)
    .join('\n');
}

function filesOf(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function directorySize(directory: string): number {
  return filesOf(directory).reduce((total, file) => total + statSync(file).size, 0);
}

/** The size of the asset's zip: each file deflated, plus its local and central directory headers. */
function zippedSize(directory: string): number {
  const ZIP_HEADERS = 30 + 46;
  return filesOf(directory).reduce(
    (total, file) => total + deflateRawSync(readFileSync(file)).length + ZIP_HEADERS + 2 * (file.length - directory.length),
    0,
  );
}
