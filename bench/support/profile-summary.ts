/**
 * Summarises a V8 CPU profile of the server (from `npm run bench:load -- --cpu-prof DIR`): self time by
 * package or area, and the hottest functions.
 *
 *   npx tsx bench/support/profile-summary.ts DIR/CPU.*.cpuprofile [--top 25] [--inclusive rankChunks,toPayloadItems] [--skip 20]
 *
 * With --inclusive, also the total time (self and callees, not counted twice under recursion) of each
 * named function: where one request's stages went, e.g. ranking, merging, facts, extracts, serialising.
 * With --skip, the profile's first seconds are left out (a server's start and cold queries, so the
 * tables show the warm queries alone).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds of self time per profile node id, counting the samples from `skipUs` after the profile's start. */
function selfTimes(profile: CpuProfile, skipUs: number): Map<number, number> {
  const times = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= skipUs) times.set(id, (times.get(id) ?? 0) + delta);
  });
  return times;
}

/** The package (or area of this repo, or runtime) a frame belongs to. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native / builtin)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  const repo = /\/(functions|bench|lib)\/([^/]+)/.exec(url);
  return repo ? `kmem ${repo[1]}/${repo[2]}` : url;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/(functions|bench)\//, '$1/')}:${lineNumber + 1}`
    : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

function tally<K>(entries: Iterable<[K, number]>): [K, number][] {
  const totals = new Map<K, number>();
  for (const [key, value] of entries) totals.set(key, (totals.get(key) ?? 0) + value);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function table(title: string, rows: [string, number][], total: number, top: number): string[] {
  return [
    `| ${title} | self ms | % |`,
    '|---|---:|---:|',
    ...rows.slice(0, top).map(([name, us]) => `| ${name} | ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} |`),
  ];
}

function summarise(file: string, top: number, skipUs: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = [...selfTimes(profile, skipUs)].map(([id, us]) => [byId.get(id)!, us] as [ProfileNode, number]);
  const total = self.reduce((sum, [, us]) => sum + us, 0);
  const busy = self.filter(([node]) => node.callFrame.functionName !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
  return [
    `### ${file}`,
    '',
    `sampled ${(total / 1e6).toFixed(1)} s${skipUs > 0 ? ` after the first ${skipUs / 1e6} s` : ''}, of which ${(busy / 1e6).toFixed(1)} s not idle`,
    '',
    ...table('area', tally(self.map(([node, us]) => [areaOf(node.callFrame.url, node.callFrame.functionName), us])), total, top),
    '',
    ...table('function', tally(self.map(([node, us]) => [frameName(node), us])), total, top),
  ];
}

/** Inclusive time of each named function: the samples whose stack holds a frame of that name. */
function inclusiveTable(file: string, names: readonly string[], skipUs: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = selfTimes(profile, skipUs);
  const busy = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
  const totals = new Map(names.map((name) => [name, 0]));
  for (const [id, us] of self) {
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) onStack.add(byId.get(at)?.callFrame.functionName ?? '');
    for (const name of names) if (onStack.has(name)) totals.set(name, (totals.get(name) ?? 0) + us);
  }
  return [
    '| function (inclusive) | ms | % of busy |',
    '|---|---:|---:|',
    ...names.map(
      (name) => `| ${name} | ${((totals.get(name) ?? 0) / 1000).toFixed(0)} | ${((100 * (totals.get(name) ?? 0)) / busy).toFixed(1)} |`,
    ),
  ];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, inclusive: { type: 'string' }, skip: { type: 'string', default: '0' } },
});
const skipUs = Number(values.skip) * 1e6;
if (!Number.isFinite(skipUs) || skipUs < 0) throw new Error(`--skip must be a number of seconds ≥ 0, got '${values.skip}'`);
for (const file of positionals) {
  const inclusive = values.inclusive ? ['', ...inclusiveTable(file, values.inclusive.split(','), skipUs)] : [];
  process.stdout.write(`${[...summarise(file, Number(values.top), skipUs), ...inclusive].join('\n')}\n\n`);
}
