/**
 * The gates `npm test` runs beside vitest, run side by side instead of one after another: the two type
 * checks (the service and the console), the format check, lint (Biome, the layering rule and the file size
 * budget) and knip. They are independent, so as many run at once as the machine has cores (two at least:
 * the longest ones start first, so the shortest fill the gaps). Each gate's output is printed whole when it
 * ends, so outputs do not interleave; the script exits 1 when any gate failed, after every gate has run.
 *
 * With `--beside-tests` (what `npm test` runs) the suite (`vitest run --coverage`) starts at once and the
 * gates run beside it at low priority (nice 10): they take the CPU the suite leaves while its end-to-end
 * tests wait on the runtime, instead of 70 s of their own before it starts; the suite's output streams
 * as it comes, and each failed gate's output is printed again after it, with the outcome.
 *
 * Usage: `tsx scripts/run-gates.ts` (the gates alone: `npm run gates`), `tsx scripts/run-gates.ts lint knip`
 * for some, `tsx scripts/run-gates.ts --beside-tests` (`npm test`; arguments after `--` go to vitest).
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

interface Gate {
  readonly name: string;
  readonly command: string;
}

/**
 * The type checker: TypeScript 7, the native compiler (the `typescript-native` alias of `typescript@7`), by its
 * path, since `typescript` itself stays 5.x for the tools that load its JavaScript API (dependency-cruiser,
 * openapi-typescript) and both packages name their binary `tsc`. It checks the service in 11 CPU-seconds
 * where TypeScript 5.9 took 35, on a quiet machine (docs/testing.md, "Test time").
 */
const TSC = 'node node_modules/typescript-native/bin/tsc';

/** Longest first (seconds on a quiet 2-core machine: lint 11, tsc 11, knip 5, format 3, console tsc 1). */
const GATES: readonly Gate[] = [
  { name: 'lint', command: 'npm run -s lint' },
  { name: 'typecheck', command: `${TSC} --noEmit -p tsconfig.json` },
  { name: 'knip', command: 'knip' },
  { name: 'typecheck:console', command: `${TSC} --noEmit -p console/tsconfig.json` },
  { name: 'format:check', command: 'npm run -s format:check' },
];

/** The suite, run beside the gates by `--beside-tests`. */
const TESTS = 'vitest run --coverage';

/** The niceness of gates run beside the suite: the suite's processes (niceness 0) get the CPU first. */
const GATE_NICENESS = 10;

interface Outcome {
  readonly gate: Gate;
  readonly code: number;
  readonly seconds: number;
  readonly output: string;
}

/** Runs one gate in a shell (npm puts node_modules/.bin on the PATH), its output held until it ends. */
function runGate(gate: Gate, niceness: number): Promise<Outcome> {
  const started = Date.now();
  const command = niceness ? `nice -n ${niceness} sh -c ${JSON.stringify(gate.command)}` : gate.command;
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      process.stdout.write(`[gates] ${gate.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
      if (text) process.stdout.write(`${text}\n`);
      resolve({ gate, code: code ?? 1, seconds, output: text });
    });
  });
}

/** Runs the gates, at most `slots` at once, in their order; every outcome. */
async function runAll(gates: readonly Gate[], slots: number, niceness: number): Promise<Outcome[]> {
  const queue = [...gates];
  const outcomes: Outcome[] = [];
  const lane = async () => {
    for (let gate = queue.shift(); gate; gate = queue.shift()) outcomes.push(await runGate(gate, niceness));
  };
  await Promise.all(Array.from({ length: Math.min(slots, gates.length) }, lane));
  return outcomes;
}

/** Runs the suite (with `extra` arguments for vitest) with its output streamed; its exit code. */
function runTests(extra: readonly string[]): Promise<number> {
  const command = [TESTS, ...extra.map((arg) => JSON.stringify(arg))].join(' ');
  return new Promise((resolve) => {
    spawn(command, { shell: true, stdio: 'inherit' }).on('close', (code) => resolve(code ?? 1));
  });
}

// `--beside-tests [gate ...] [-- vitest arguments]`: what follows `--` goes to vitest (test files, say)
const dashes = process.argv.indexOf('--');
const args = dashes < 0 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const vitestArgs = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const besideTests = args.includes('--beside-tests');
const wanted = args.filter((arg) => arg !== '--beside-tests');
const unknown = wanted.filter((name) => !GATES.some((gate) => gate.name === name));
if (unknown.length) {
  console.error(`[gates] unknown gate(s): ${unknown.join(', ')}; the gates: ${GATES.map((gate) => gate.name).join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length ? GATES.filter((gate) => wanted.includes(gate.name)) : GATES;
const slots = Math.max(2, availableParallelism());
const [outcomes, testsCode] = await Promise.all([
  runAll(chosen, slots, besideTests ? GATE_NICENESS : 0),
  besideTests ? runTests(vitestArgs) : Promise.resolve(0),
]);
const failed = outcomes.filter((outcome) => outcome.code !== 0);
if (besideTests) {
  // the suite's output came after the gates' outputs: the failed ones again, where they are seen
  for (const outcome of failed) process.stdout.write(`[gates] ${outcome.gate.name} FAILED (exit ${outcome.code}):\n${outcome.output}\n`);
  if (testsCode !== 0) console.error(`[gates] ${TESTS} failed (exit ${testsCode})`);
}
if (failed.length) console.error(`[gates] failed: ${failed.map((outcome) => outcome.gate.name).join(', ')}`);
if (failed.length || testsCode !== 0) process.exit(1);
