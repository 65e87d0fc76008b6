/**
 * What a user runs, for test/infra/real-synth.test.ts: a clean copy of the repository, `npx cdk synth` in it
 * as a user's shell would run it, and what the synth left in cdk.out (kmem's functions and their assets).
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { REPO_ROOT } from '../../../lib/paths';

export const SYNTH_TIMEOUT_MS = 8 * 60_000;

interface LambdaResource {
  Metadata?: Record<string, unknown>;
  Properties: { Architectures?: string[]; Environment?: { Variables?: Record<string, unknown> } };
}

/** One of kmem's functions in cdk.out: its Powertools service (`kmem-<group>`), architecture and asset directory. */
export interface SynthesizedFunction {
  readonly service: string;
  readonly architecture: string;
  readonly assetDir: string;
}

/** The repository's files (tracked, plus new ones not ignored) copied to a temp dir, node_modules linked. */
export function cleanCopy(): string {
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
export async function run(command: string, args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
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
export function lambdaFunctions(outdir: string): SynthesizedFunction[] {
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
export function elfMachine(file: string): string {
  const header = readFileSync(file).subarray(0, 20);
  if (header.subarray(0, 4).toString('latin1') !== '\x7fELF') return `not an ELF file: ${file}`;
  const machine = header.readUInt16LE(18);
  return machine === 0xb7 ? 'arm64' : machine === 0x3e ? 'x64' : `machine ${machine}`;
}

/** The lines of a failed synth that say why (npm's and the CDK's errors), not npm's usage text. */
export function failureLines(output: string): string {
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

export function directorySize(directory: string): number {
  return filesOf(directory).reduce((total, file) => total + statSync(file).size, 0);
}

/** The size of the asset's zip: each file deflated, plus its local and central directory headers. */
export function zippedSize(directory: string): number {
  const ZIP_HEADERS = 30 + 46;
  return filesOf(directory).reduce(
    (total, file) => total + deflateRawSync(readFileSync(file)).length + ZIP_HEADERS + 2 * (file.length - directory.length),
    0,
  );
}
