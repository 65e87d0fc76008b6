/**
 * Bytes one more conversation session writes to a graph memory's graph, against the graph's size:
 * the build's delta (`graph-delta.json`) and the query side's segment delta (`graph-seg-delta.json`), which is
 * what a build writes now, against what a base writes whole: the state (`graph-state.json`, what every build
 * wrote before graph deltas) and the segment retrieval walks (`graph.seg`, what every build wrote before
 * segment deltas); then what a query container spends on the segment: reading it whole, against applying
 * the last build's segment delta to the segment before it (a warm container).
 *
 *   npx tsx bench/graph-delta-bytes.ts [--sessions 20,200,1000]
 *
 * Synthetic sessions of 8 user messages, from few names, so every session touches the same hub entities;
 * built in process through the worker's graph build (`buildMemoryGraph`, offline extractor,
 * `factExtraction` on), each session on the graph the last build kept, as a warm worker does. Prints a
 * markdown table for the last session added at each size.
 */
import { parseArgs } from 'node:util';
import { buildMemoryGraph, OFFLINE_GRAPH_EXTRACTOR } from '../functions/core/ingest/memory-graph';
import type { SourceId } from '../functions/core/source-ref';
import type { MemoryGraph } from '../functions/engine/graph/graph-build';
import { snapshotGraph } from '../functions/engine/graph/graph-snapshot';
import { buildGraphSegment } from '../functions/engine/graph/graph-segment';
import { deserializeGraphSegment, serializeGraphSegment } from '../functions/engine/graph/graph-segment-format';
import { applySegmentDeltas, type GraphSegmentDelta } from '../functions/engine/graph/graph-segment-delta';
import { type SegmentSource, segmentOfSource, sourceOfSegment } from '../functions/engine/graph/graph-segment-source';

const PEOPLE = ['Alice Martin', 'Bruno Costa', 'Chen Wei', 'Dana Scully', 'Emil Novak', 'Farah Khan', 'Goran Ilic'];
const PLACES = ['Paris', 'Berlin', 'Lisbon', 'Oslo', 'Denver', 'Quito', 'Kyoto'];
const COMPANIES = ['Globex', 'Initech', 'Acme Corporation', 'Hooli', 'Umbrella'];
const MESSAGES_PER_SESSION = 8;
const MEMORY = { id: 'bench', ontology: 'culture' as const, factExtraction: true };

let state = 7;
const random = (): number => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function line(): string {
  return pick([
    () => `${pick(PEOPLE)} moved to ${pick(PLACES)}.`,
    () => `${pick(PEOPLE)} works at ${pick(COMPANIES)}.`,
    () => `I live in ${pick(PLACES)} and I work at ${pick(COMPANIES)}.`,
    () => `${pick(PEOPLE)} visited ${pick(PLACES)} with ${pick(PEOPLE)}.`,
    () => `I love ${pick(['tea', 'jazz', 'chess', 'sushi'])}. I prefer ${pick(['window', 'aisle'])} seats.`,
  ])();
}

const hourTime = (hours: number): string => new Date(Date.UTC(2024, 0, 1) + hours * 3_600_000).toISOString();

function sessionChunks(session: number, fileId: SourceId) {
  return Array.from({ length: MESSAGES_PER_SESSION }, (_, m) => {
    const message = {
      id: `${session}-${m}`,
      sessionId: `s${session}`,
      role: 'user' as const,
      customerUserId: `u${session % 50}`,
      createdAt: hourTime(session * 10 + m),
    };
    const text = line();
    return { id: `msg:${session}-${m}`, fileId, text, start: 0, end: text.length, message };
  });
}

/** Builds `sessions + 1` sessions one build each; answers the sizes the last build wrote. */
async function lastSessionBytes(sessions: number): Promise<Written> {
  let graph: MemoryGraph | undefined;
  let before: SegmentSource | undefined;
  const kept = new Set<string>();
  for (let session = 0; ; session++) {
    const fileId = `session:s${session}` as SourceId;
    kept.add(fileId);
    const changes = {
      previous: undefined,
      ...(graph ? { cached: graph } : {}),
      added: new Map([[fileId, sessionChunks(session, fileId)]]),
      kept,
    };
    const built = await buildMemoryGraph(MEMORY, changes, { wordVectors: undefined, extractor: OFFLINE_GRAPH_EXTRACTOR });
    graph = built.graph;
    if (session === sessions - 1) before = sourceOfSegment(deserializeGraphSegment(serializeGraphSegment(buildGraphSegment(graph.graph))));
    if (session < sessions) continue;
    const whole = serializeGraphSegment(buildGraphSegment(graph.graph));
    const storedDelta = JSON.stringify(built.segmentDelta);
    return {
      entities: graph.graph.entities.size,
      delta: Buffer.byteLength(JSON.stringify(built.delta)),
      state: Buffer.byteLength(JSON.stringify(snapshotGraph(graph.graph))),
      segmentDelta: Buffer.byteLength(storedDelta),
      segment: whole.byteLength,
      ...queryTimes(whole, before, storedDelta),
    };
  }
}

interface Written {
  entities: number;
  delta: number;
  segmentDelta: number;
  state: number;
  segment: number;
  /** Milliseconds (median of 5) for a query container to read the whole segment, and to apply the last delta to the one before (warm). */
  loadWhole: number;
  applyDelta: number;
}

function queryTimes(whole: Uint8Array, before: SegmentSource | undefined, storedDelta: string): Pick<Written, 'loadWhole' | 'applyDelta'> {
  const timed = (work: () => unknown): number => {
    const times = Array.from({ length: 5 }, () => {
      const started = performance.now();
      work();
      return performance.now() - started;
    });
    return times.sort((a, b) => a - b)[2] ?? 0;
  };
  return {
    loadWhole: timed(() => deserializeGraphSegment(whole)),
    applyDelta: before ? timed(() => segmentOfSource(applySegmentDeltas(before, [JSON.parse(storedDelta) as GraphSegmentDelta]))) : 0,
  };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sessions: { type: 'string', default: '20,200,1000' } } });
  const sizes = values.sessions.split(',').map(Number);
  const rows = [
    '| sessions in the memory | entities | delta (`graph-delta.json`) | segment delta (`graph-seg-delta.json`) | graph whole (`graph-state.json`, a base) | `graph.seg` whole (a base) | read whole `graph.seg` (ms) | apply one segment delta, warm (ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const sessions of sizes) {
    const bytes = await lastSessionBytes(sessions);
    rows.push(
      `| ${sessions + 1} | ${bytes.entities} | ${kb(bytes.delta)} | ${kb(bytes.segmentDelta)} | ${kb(bytes.state)} | ${kb(bytes.segment)} | ${bytes.loadWhole.toFixed(1)} | ${bytes.applyDelta.toFixed(1)} |`,
    );
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

await main();
