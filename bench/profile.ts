/**
 * Profile benchmark: user profiles from conversations with known answers, and what validity and profiles
 * cost at ingestion.
 *
 *   npm run bench:profile -- [--users 60] [--seed 7] [--batch 4] [--runs 3]
 *
 * A generator writes one conversation per user (seeded): the user states where they live and work, their
 * diet, likes, dislikes, seat preference and plans, in varied phrasings (some the extractor does not
 * know: "Lisbon has been home for years", "my employer is Initech", "can't get enough of sushi"), moves,
 * changes jobs and preferences later, and mixes in distractors (questions, other people's facts,
 * the assistant's suggestions in the first person). Each conversation is synced into a graph memory the
 * way the worker does (ingest/memory-graph.ts, the session added again every `--batch` messages).
 *
 * Reported: precision and recall of the current profile (statements still holding at the end) against the
 * known current facts (residence, employer) and preferences (likes, dislikes, seat preference, diet), and
 * of superseded facts (the earlier home and job closed); then the graph's ingestion time per message with
 * validity and profiles on (message origins, statements, the incremental validity pass) against off (the same engine
 * steps without them: what the graph did before), median of three runs each, in wall time and in the
 * process's CPU time (user + system: steadier when other work shares the machine). Those are the engine's
 * graph steps of a sync only. Then, in each run after the engine's, the whole ingestion of the same messages as the worker
 * runs it (support/sync-cost.ts: the API's use cases write them, the worker's runWork does every work
 * message they queue, in process on the stores in memory), ms per message by work kind, with validity and
 * profiles on (the product has no switch to turn them off), next to the engine table's extra (incremental
 * pass minus off) and whole / (whole - extra); and the load average at the start and the end.
 */
import '../functions/local/local-env'; // first: Powertools metrics off and logs at warn, as on the local runtime
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Message } from '../functions/core/model';
import { conversationChunks } from '../functions/core/ingest/conversation-chunks';
import { buildMemoryGraph, OFFLINE_GRAPH_EXTRACTOR } from '../functions/core/ingest/memory-graph';
import { createMemoryGraph, extractFile, type MemoryGraph, mergeFile } from '../functions/engine/graph/graph-build';
import { graphDelta, markFile, trackGraphChanges } from '../functions/engine/graph/graph-delta';
import { graphSegmentDelta } from '../functions/engine/graph/graph-segment-delta';
import { type GraphSnapshot, portableGraphSnapshot, snapshotGraph } from '../functions/engine/graph/graph-snapshot';
import { deltaWithinBounds } from '../functions/core/ingest/graph-version';
import { buildGraphSegment, serializeGraphSegment } from '../functions/engine/graph/graph-segment';
import { refreshValidity } from '../functions/engine/graph/validity';
import { addFileToScope, emptyValidityScope } from '../functions/engine/graph/validity-scope';
import type { SpeakerStatement } from '../functions/engine/graph/graph-model';
import { type PipelineTiming, pipelineTable, timePipelineSyncs } from './support/sync-cost';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '60' },
    seed: { type: 'string', default: '7' },
    batch: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
  },
});
const USERS = Number(args.users);
const BATCH = Number(args.batch);
const RUNS = Number(args.runs);
let seed = Number(args.seed);
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const CITIES = ['Paris', 'Berlin', 'Lisbon', 'Toronto', 'Osaka', 'Melbourne', 'Oslo', 'Denver', 'Nairobi', 'Seville'];
const EMPLOYERS = [
  'Acme Corporation',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Stark Industries',
  'Wayne Foods',
  'Hooli',
  'Vandelay Imports',
];
const LIKES = ['tea', 'coffee', 'hiking', 'jazz', 'sushi', 'photography', 'board games', 'cycling', 'chess', 'gardening'];
const SEATS = ['window seats', 'aisle seats'];
const DIETS = ['vegetarian', 'vegan', 'pescatarian'];

type Truth = { category: 'fact' | 'preference'; key: string };
type Said = { role: 'user' | 'assistant'; text: string };

/** Phrasings: the extractor knows the first ones of each list; the last one or two it does not. */
const LIVE = [
  (c: string) => `I live in ${c}.`,
  (c: string) => `I'm based in ${c} these days.`,
  (c: string) => `${c} has been home for years.`,
];
const MOVE = [
  (c: string) => `We moved to ${c} last month!`,
  (c: string) => `I relocated to ${c} in the spring.`,
  (c: string) => `Just settled into our new flat in ${c}.`,
];
const WORK = [(e: string) => `I work at ${e}.`, (e: string) => `I'm an analyst at ${e}.`, (e: string) => `My employer is ${e}.`];
const JOB = [
  (e: string) => `I started a new job at ${e}.`,
  (e: string) => `I joined ${e} this week.`,
  (e: string) => `Big news: ${e} hired me!`,
];
const LIKE = [
  (x: string) => `I love ${x}.`,
  (x: string) => `I really enjoy ${x}.`,
  (x: string) => `I'm a big fan of ${x}.`,
  (x: string) => `Can't get enough of ${x}.`,
];
const DISLIKE = [(x: string) => `I hate ${x}.`, (x: string) => `I don't like ${x}.`, (x: string) => `${x} is not for me.`];
const STOP = [(x: string) => `I don't like ${x} anymore.`, (x: string) => `I no longer enjoy ${x}.`];
const SEAT = [
  (s: string) => `I prefer ${s}.`,
  (s: string) => `I'd prefer ${s} on long flights.`,
  (s: string) => `Please book me ${s} from now on.`,
];
const DIET = [(d: string) => `I'm ${d}.`, (d: string) => `I am a ${d}.`, (d: string) => `I went ${d} last year.`];
const DISTRACTORS = [
  (): Said => ({ role: 'user', text: `My friend lives in ${pick(CITIES)}.` }),
  (): Said => ({ role: 'user', text: `Do you think I like ${pick(LIKES)}?` }),
  (): Said => ({ role: 'assistant', text: `I love ${pick(LIKES)} too, and I live in the cloud.` }),
  (): Said => ({ role: 'assistant', text: `I prefer ${pick(SEATS)} myself.` }),
  (): Said => ({ role: 'user', text: `What is the weather like in ${pick(CITIES)}?` }),
  (): Said => ({ role: 'user', text: `My sister works at ${pick(EMPLOYERS)}.` }),
];

interface Conversation {
  said: Said[];
  current: Truth[];
  superseded: Truth[];
}

/** One user's conversation and what holds at its end. */
function conversation(): Conversation {
  const said: Said[] = [];
  const user = (text: string) => said.push({ role: 'user', text });
  const distract = () => said.push(pick(DISTRACTORS)());
  const [home, nextHome] = twoOf(CITIES);
  const [job, nextJob] = twoOf(EMPLOYERS);
  const likes = [...new Set([pick(LIKES), pick(LIKES), pick(LIKES)])];
  const disliked = pick(LIKES.filter((x) => !likes.includes(x)));
  const seat = pick(SEATS);
  const diet = pick(DIETS);
  user(pick(LIVE)(home));
  distract();
  user(pick(WORK)(job));
  for (const like of likes) user(pick(LIKE)(like));
  user(pick(DISLIKE)(disliked));
  distract();
  user(pick(SEAT)(seat));
  user(pick(DIET)(diet));
  const moves = random() < 0.7;
  const changesJob = random() < 0.6;
  const flipsSeat = random() < 0.5;
  const dropped = random() < 0.4 ? likes[0] : undefined;
  if (moves) user(pick(MOVE)(nextHome));
  distract();
  if (changesJob) user(pick(JOB)(nextJob));
  const nextSeat = SEATS.find((s) => s !== seat) as string;
  if (flipsSeat) user(`These days ${pick(SEAT)(nextSeat).replace(/^I/, 'I').toLowerCase().replace(/^i /, 'I ')}`);
  if (dropped) user(pick(STOP)(dropped));
  distract();
  const current: Truth[] = [
    { category: 'fact', key: `residence:${moves ? nextHome : home}` },
    { category: 'fact', key: `employer:${changesJob ? nextJob : job}` },
    ...likes.filter((x) => x !== dropped).map((x): Truth => ({ category: 'preference', key: `like:${x}` })),
    { category: 'preference', key: `dislike:${disliked}` },
    ...(dropped ? [{ category: 'preference', key: `dislike:${dropped}` } as Truth] : []),
    { category: 'preference', key: `prefer:${flipsSeat ? nextSeat : seat}` },
    { category: 'preference', key: `diet:${diet}` },
  ];
  const superseded: Truth[] = [
    ...(moves ? [{ category: 'fact', key: `residence:${home}` } as Truth] : []),
    ...(changesJob ? [{ category: 'fact', key: `employer:${job}` } as Truth] : []),
  ];
  return { said, current, superseded };
}

function twoOf<T>(items: readonly T[]): [T, T] {
  const first = pick(items);
  return [first, pick(items.filter((item) => item !== first))];
}

/** The key a statement is judged by, as the truth writes it. */
function keyOf(statement: SpeakerStatement): string {
  const value = statement.value.replace(/^(?:like|dislike) /, '').toLowerCase();
  const kind = statement.kind === 'work' ? 'employer' : statement.kind;
  return `${kind}:${value}`;
}

function messagesOf(said: readonly Said[], sessionId: string, customer: string): Message[] {
  const start = Date.UTC(2024, 0, 1);
  return said.map((entry, index) => ({
    id: `${sessionId}-m${index}`,
    accountId: 'bench',
    sessionId,
    role: entry.role,
    content: entry.text,
    customerUserId: customer,
    createdAt: new Date(start + index * 86_400_000).toISOString(),
    updatedAt: new Date(start + index * 86_400_000).toISOString(),
  })) as unknown as Message[];
}

const MEMORY = { id: 'bench', ontology: 'culture' as const, factExtraction: true };

/** Syncs each conversation every `BATCH` messages through the worker's graph build; answers the last snapshot. */
async function syncAll(conversations: readonly Conversation[]): Promise<{ snapshot: GraphSnapshot | undefined; messages: number }> {
  let cached: MemoryGraph | undefined;
  let messages = 0;
  for (const [u, convo] of conversations.entries()) {
    const all = messagesOf(convo.said, `s${u}`, `user-${u}`);
    for (let end = BATCH; end < all.length + BATCH; end += BATCH) {
      const chunks = conversationChunks(all.slice(0, Math.min(end, all.length)));
      const sessions = new Set([...Array(u + 1).keys()].map((i) => `session:s${i}`));
      const built = await buildMemoryGraph(
        MEMORY,
        { previous: undefined, ...(cached ? { cached } : {}), added: new Map([[`session:s${u}`, chunks]]), kept: sessions },
        { wordVectors: undefined, extractor: OFFLINE_GRAPH_EXTRACTOR },
      );
      cached = built.graph; // as a warm worker keeps it (ingest/graph-cache.ts)
    }
    messages += all.length;
  }
  return { snapshot: cached && snapshotGraph(cached.graph), messages };
}

/** Validity off (what the graph did before), on with the whole validity pass, on with the worker's incremental pass. */
type Mode = 'off' | 'whole' | 'incremental';

/**
 * The engine steps of a sync, timed, as a warm worker runs them (ingest/memory-graph.ts, graph-version.ts):
 * the graph kept from the sync before, the session merged again with its changes tracked, and the delta
 * and the segment's delta written (the graph and its segment whole, as a new base, when the chain passes
 * its bounds). With
 * validity: message origins (times, sources, speakers: statements) and the validity pass (whole, or over
 * the groups the session touched, as the worker runs it). Answers seconds in all and in the validity pass.
 */
function timeSyncs(conversations: readonly Conversation[], mode: Mode): Timing {
  const memory = createMemoryGraph({ ...MEMORY, ontology: 'culture' });
  let chain = { baseBytes: 0, deltas: [] as string[], deltaBytes: 0 };
  let first = true;
  let pass = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const [u, convo] of conversations.entries()) {
    const all = messagesOf(convo.said, `s${u}`, `user-${u}`);
    for (let end = BATCH; end < all.length + BATCH; end += BATCH) {
      const chunks = conversationChunks(all.slice(0, Math.min(end, all.length)));
      const touched = trackGraphChanges(memory.graph);
      const input = { fileId: `session:s${u}`, chunks: chunks.map((chunk) => ({ id: chunk.id, text: chunk.text })) };
      const origins = new Map(
        chunks.map((chunk) => [
          chunk.id,
          {
            time: chunk.message?.createdAt ?? '',
            sourceId: chunk.message?.id ?? '',
            ...(chunk.message?.role === 'user' ? { speaker: `user-${u}`, text: chunk.text } : {}),
          },
        ]),
      );
      const scope = emptyValidityScope();
      const earlier = memory.graph.files.get(input.fileId);
      if (earlier) addFileToScope(scope, memory.graph, earlier);
      if (earlier) markFile(touched, earlier);
      const extraction = extractFile(input, { schema: memory.graph.schema, factExtraction: true });
      mergeFile(memory, extraction, mode === 'off' ? {} : { chunks: origins });
      const merged = memory.graph.files.get(input.fileId);
      if (merged) addFileToScope(scope, memory.graph, merged);
      if (merged) markFile(touched, merged);
      const passStarted = performance.now();
      if (mode !== 'off') refreshValidity(memory.graph, mode === 'incremental' && !first ? scope : undefined, touched.validity);
      pass += performance.now() - passStarted;
      const changed = graphDelta(memory.graph, touched);
      const delta = Buffer.byteLength(JSON.stringify(changed));
      if (deltaWithinBounds(chain, delta)) {
        JSON.stringify(graphSegmentDelta(memory.graph, changed));
        chain = { ...chain, deltas: [...chain.deltas, ''], deltaBytes: chain.deltaBytes + delta };
      } else {
        serializeGraphSegment(buildGraphSegment(memory.graph));
        chain = { baseBytes: Buffer.byteLength(JSON.stringify(snapshotGraph(memory.graph))), deltas: [], deltaBytes: 0 };
      }
      first = false;
    }
  }
  const used = process.cpuUsage(cpu);
  return { total: (performance.now() - started) / 1000, pass: pass / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** Seconds: wall time in all and in the validity pass, and the process's CPU time (steadier on a shared machine). */
interface Timing {
  total: number;
  pass: number;
  cpu: number;
}

function score(predicted: readonly string[], truth: readonly string[]): { precision: number; recall: number; tp: number } {
  const want = new Set(truth);
  const got = new Set(predicted);
  const tp = [...got].filter((key) => want.has(key)).length;
  return { precision: got.size ? tp / got.size : 1, recall: want.size ? tp / want.size : 1, tp };
}

const loadAtStart = loadavg();
const conversations = Array.from({ length: USERS }, conversation);
const on = await syncAll(conversations);
const statements = ((on.snapshot && portableGraphSnapshot(on.snapshot))?.files ?? []).flatMap((file) => file.statements ?? []);
const rows: string[] = [];
for (const category of ['fact', 'preference'] as const) {
  const predicted: string[] = [];
  const truth: string[] = [];
  const closedPredicted: string[] = [];
  const closedTruth: string[] = [];
  conversations.forEach((convo, u) => {
    const mine = statements.filter((statement) => statement.speaker === `user-${u}` && statement.category === category);
    predicted.push(...mine.filter((s) => s.validTo === null).map((s) => `${u}|${keyOf(s)}`));
    truth.push(...convo.current.filter((t) => t.category === category).map((t) => `${u}|${t.key.toLowerCase()}`));
    closedPredicted.push(...mine.filter((s) => s.validTo !== null).map((s) => `${u}|${keyOf(s)}`));
    closedTruth.push(...convo.superseded.filter((t) => t.category === category).map((t) => `${u}|${t.key.toLowerCase()}`));
  });
  const current = score(predicted, truth);
  rows.push(
    `| current ${category === 'fact' ? 'facts' : 'preferences'} | ${truth.length} | ${new Set(predicted).size} | ${current.precision.toFixed(3)} | ${current.recall.toFixed(3)} |`,
  );
  if (category === 'fact') {
    const closed = score(closedPredicted, closedTruth);
    rows.push(
      `| superseded facts (closed) | ${closedTruth.length} | ${new Set(closedPredicted).size} | ${closed.precision.toFixed(3)} | ${closed.recall.toFixed(3)} |`,
    );
  }
}

const MODES: readonly Mode[] = ['off', 'whole', 'incremental'];
const timings = new Map<Mode, Timing[]>(MODES.map((mode) => [mode, []]));
const pipeline: PipelineTiming[] = [];
const sessions = conversations.map((convo, u) => messagesOf(convo.said, `s${u}`, `user-${u}`));
for (let run = 0; run < RUNS; run++) {
  for (const mode of MODES) timings.get(mode)?.push(timeSyncs(conversations, mode));
  pipeline.push(await timePipelineSyncs(sessions, BATCH));
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perMessage = (seconds: number) => ((seconds / on.messages) * 1000).toFixed(2);
const medianOf = (mode: Mode, part: keyof Timing) => median((timings.get(mode) ?? []).map((timing) => timing[part]));

console.log(`# Profile bench: ${USERS} users, ${on.messages} messages, synced every ${BATCH} messages (seed ${args.seed})\n`);
console.log('| set | known | extracted | precision | recall |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(
  `\n| ingestion (graph build per sync, median of ${RUNS}) | ms per message | ratio | CPU ms per message | CPU ratio | validity pass, ms per message |`,
);
console.log('|---|---|---|---|---|---|');
const LABELS: Record<Mode, string> = {
  off: 'validity and profiles off',
  whole: 'on, whole validity pass per sync',
  incremental: 'on, incremental validity pass (the worker)',
};
for (const mode of MODES) {
  const ratio = (medianOf(mode, 'total') / medianOf('off', 'total')).toFixed(2);
  const cpuRatio = (medianOf(mode, 'cpu') / medianOf('off', 'cpu')).toFixed(2);
  console.log(
    `| ${LABELS[mode]} | ${perMessage(medianOf(mode, 'total'))} | ${ratio} | ${perMessage(medianOf(mode, 'cpu'))} | ${cpuRatio} | ${perMessage(medianOf(mode, 'pass'))} |`,
  );
}
const extra = {
  wall: medianOf('incremental', 'total') - medianOf('off', 'total'),
  cpu: medianOf('incremental', 'cpu') - medianOf('off', 'cpu'),
};
console.log('');
for (const line of pipelineTable(pipeline, on.messages, extra)) console.log(line);
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
console.log(`\nload average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(loadavg())} at the end`);
