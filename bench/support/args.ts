/** Command-line options of bench/load.ts. */
import { parseArgs } from 'node:util';

export interface LoadOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Write a CPU profile of the server process here (`node --cpu-prof`). */
  cpuProfileDir?: string;
  /** Run only the scenarios whose name contains this text. */
  only?: string;
}

const USAGE = `usage: npm run bench:load -- [--duration 10] [--connections 10] [--warmup 2] [--only "get user"] [--cpu-prof DIR]`;

export function parseLoadOptions(argv: string[] = process.argv.slice(2)): LoadOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  return {
    durationSeconds: positive('duration', values.duration),
    warmupSeconds: positive('warmup', values.warmup, true),
    connections: positive('connections', values.connections),
    cpuProfileDir: values['cpu-prof'],
    only: values.only,
  };
}

function positive(name: string, text: string | undefined, zeroAllowed = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1)) {
    throw new Error(`--${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} integer, got '${text}'\n${USAGE}`);
  }
  return value;
}
