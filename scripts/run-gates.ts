/**
 * The gates `npm test` runs before vitest, run side by side instead of one after another: the two type
 * checks (the service and the console), the format check, lint (Biome, the layering rule and the file size
 * budget) and knip. They are independent, so as many run at once as the machine has cores (two at least:
 * the longest ones start first, so the shortest fill the gaps). Each gate's output is printed whole when it
 * ends, so outputs do not interleave; the script exits 1 when any gate failed, after every gate has run.
 *
 * Usage: `tsx scripts/run-gates.ts` (what `npm test` runs), or `tsx scripts/run-gates.ts lint knip` for some.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

interface Gate {
  readonly name: string;
  readonly command: string;
}

/** Longest first (seconds on a quiet 2-core machine: tsc 60, knip 40, console tsc 20, lint 15, format 2). */
const GATES: readonly Gate[] = [
  { name: 'typecheck', command: 'tsc --noEmit -p tsconfig.json' },
  { name: 'knip', command: 'knip' },
  { name: 'typecheck:console', command: 'tsc --noEmit -p console/tsconfig.json' },
  { name: 'lint', command: 'npm run -s lint' },
  { name: 'format:check', command: 'npm run -s format:check' },
];

interface Outcome {
  readonly gate: Gate;
  readonly code: number;
  readonly seconds: number;
}

/** Runs one gate in a shell (npm puts node_modules/.bin on the PATH), its output held until it ends. */
function runGate(gate: Gate): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(gate.command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      process.stdout.write(`[gates] ${gate.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
      if (text) process.stdout.write(`${text}\n`);
      resolve({ gate, code: code ?? 1, seconds });
    });
  });
}

/** Runs the gates, at most `slots` at once, in their order; every outcome. */
async function runAll(gates: readonly Gate[], slots: number): Promise<Outcome[]> {
  const queue = [...gates];
  const outcomes: Outcome[] = [];
  const lane = async () => {
    for (let gate = queue.shift(); gate; gate = queue.shift()) outcomes.push(await runGate(gate));
  };
  await Promise.all(Array.from({ length: Math.min(slots, gates.length) }, lane));
  return outcomes;
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !GATES.some((gate) => gate.name === name));
if (unknown.length) {
  console.error(`[gates] unknown gate(s): ${unknown.join(', ')}; the gates: ${GATES.map((gate) => gate.name).join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length ? GATES.filter((gate) => wanted.includes(gate.name)) : GATES;
const outcomes = await runAll(chosen, Math.max(2, availableParallelism()));
const failed = outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.gate.name);
if (failed.length) {
  console.error(`[gates] failed: ${failed.join(', ')}`);
  process.exit(1);
}
