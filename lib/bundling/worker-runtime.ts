/**
 * The worker's runtime modules, installed into its asset for the Lambda platform whatever machine
 * synthesizes (a Mac, an ARM laptop, Linux x64): `npm install --os=linux --cpu=<arch> --libc=glibc` in the
 * asset directory, with the versions of the repository's package.json and package-lock.json. The worker's
 * asset bundling (lib/bundling/function-code.ts) runs it after the worker's bundles are in place.
 * `--prefer-offline`: what npm's cache holds (the repository's own `npm install` put most of it there) is
 * used without asking the registry whether its metadata changed; the lock file pins versions and
 * integrity either way, and what the cache lacks (linux/arm64 binaries on another host) is fetched.
 *
 * `npm install`, not `npm ci` (which `NodejsFunction`'s `nodeModules` option runs): `npm ci` refuses a lock
 * file that lacks other platforms' optional packages (`Missing: @napi-rs/canvas-android-arm64@ from lock file`), as a
 * lock made against a registry mirror that does not carry them does; `npm install` installs the locked
 * versions and skips the optional packages that are not for linux/<arch>/glibc. The flags need npm 10.3 or
 * later (`--os`/`--cpu` came in 10.1, `--libc` in 10.3): older npm ignores them and would install the host's
 * binaries, so the version is checked first, and the installed platform packages are checked after.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The worker's Lambda architecture, in Node's `process.arch` terms: arm64 (Graviton) costs about 20% less
 * per GB-second than x86_64, and every native piece the worker loads has a linux-arm64 build (the canvas
 * addon `@napi-rs/canvas-linux-arm64-gnu`, the static ffmpeg of `@ffmpeg-installer/linux-arm64`;
 * tesseract.js is WebAssembly).
 */
export const WORKER_ARCHITECTURE: LambdaCpu = 'arm64';
export type LambdaCpu = 'arm64' | 'x64';

/**
 * Packages the worker loads files of at run time (WebAssembly, a native addon, the ffmpeg binary, OCR
 * data): kept out of its bundle and installed beside it.
 */
export const WORKER_RUNTIME_MODULES = ['@napi-rs/canvas', 'tesseract.js', '@tesseract.js-data/eng', '@ffmpeg-installer/ffmpeg'] as const;

/** The platform packages the runtime modules must get on Lambda (and no others of their scopes). */
function platformPackages(cpu: LambdaCpu): string[] {
  return ['@napi-rs/canvas', `@napi-rs/canvas-linux-${cpu}-gnu`, '@ffmpeg-installer/ffmpeg', `@ffmpeg-installer/linux-${cpu}`];
}

/** The lowest npm that honours `--os`, `--cpu` and `--libc`. */
const MIN_NPM_VERSION = [10, 3, 0] as const;

/** Installs `modules` into `outputDir/node_modules` for linux/`cpu`/glibc; throws with what went wrong. */
export function installRuntimeModules(repoRoot: string, outputDir: string, cpu: LambdaCpu, modules: readonly string[]): void {
  checkNpmVersion(npm(['--version'], outputDir).trim());
  const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const dependencies = Object.fromEntries(modules.map((name) => [name, versionOf(rootPackage.dependencies, name)]));
  writeFileSync(
    join(outputDir, 'package.json'),
    `${JSON.stringify({ name: 'kmem-worker-runtime', private: true, dependencies }, null, 2)}\n`,
  );
  copyFileSync(join(repoRoot, 'package-lock.json'), join(outputDir, 'package-lock.json'));
  npm(
    [
      'install',
      '--os=linux',
      `--cpu=${cpu}`,
      '--libc=glibc',
      '--omit=dev',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    outputDir,
  );
  checkPlatformPackages(join(outputDir, 'node_modules'), cpu);
}

function versionOf(dependencies: Record<string, string>, name: string): string {
  const version = dependencies[name];
  if (!version) throw new Error(`${name} is not a dependency in package.json`);
  return version;
}

/** Throws unless `version` is at least MIN_NPM_VERSION. */
export function checkNpmVersion(version: string): void {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10));
  for (const [index, minimum] of MIN_NPM_VERSION.entries()) {
    const part = parts[index] ?? 0;
    if (part > minimum) return;
    if (part < minimum) {
      throw new Error(
        `npm ${version} cannot install the worker's modules for Lambda (it ignores --os/--cpu/--libc): ` +
          `npm ${MIN_NPM_VERSION.join('.')} or later is needed (npm install -g npm@10, or Node.js 20.12+ / 22)`,
      );
    }
  }
}

/** Throws unless exactly the Lambda platform's packages of the native scopes are installed. */
function checkPlatformPackages(modules: string, cpu: LambdaCpu): void {
  const installed = ['@napi-rs', '@ffmpeg-installer'].flatMap((scope) =>
    existsSync(join(modules, scope)) ? readdirSync(join(modules, scope)).map((name) => `${scope}/${name}`) : [],
  );
  const expected = platformPackages(cpu);
  const missing = expected.filter((name) => !installed.includes(name));
  const foreign = installed.filter((name) => !expected.includes(name));
  if (missing.length || foreign.length) {
    throw new Error(
      `worker modules for linux/${cpu}: missing ${missing.join(', ') || 'none'}; not for Lambda ${foreign.join(', ') || 'none'}`,
    );
  }
}

function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed (status ${result.status}): ${result.error?.message ?? ''}${result.stderr}`);
  }
  return result.stdout;
}
