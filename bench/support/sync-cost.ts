/**
 * The whole ingestion of a message as the worker runs it, for bench/profile.ts: the same conversations
 * written through the API's use cases (createSession, addSessions, createMessage) into one graph memory,
 * in process on the stores in memory with the offline embedder and graph extractor, and every work message
 * they queue (memory.sync-session: chunks, graph with validity and profiles, index segment with BM25 and
 * vectors, objects written, publish; messages.sync: the account's message index; session.summarize;
 * and whatever those queue in turn: merges, graph items, retiring old builds) run at once by the worker's
 * own runWork, each timed. The API's writes are not timed; attaching a session (an empty build) is not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localConfig } from '../../functions/config';
import type { Message } from '../../functions/core/model';
import type { WorkMessage } from '../../functions/core/work';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { addSessions } from '../../functions/core/use-cases/conversations';
import { createMemory } from '../../functions/core/use-cases/memories';
import { createMessage } from '../../functions/core/use-cases/messages';
import { createSession } from '../../functions/core/use-cases/sessions';
import type { WorkQueue } from '../../functions/adapters/container';
import { composeMemoryDeps } from '../../functions/local/compose';
import { type ComposedWorkerDeps, composeWorkerDeps, releaseWorkerDeps } from '../../functions/worker/deps';
import { runWork } from '../../functions/worker/dispatch';

/** Seconds of wall and CPU (user + system) time. */
export interface Spent {
  wall: number;
  cpu: number;
}

/** One run: the time the worker spent per work kind. */
export type PipelineTiming = Map<WorkMessage['kind'], Spent>;

/** The queue as the worker sees it: what the API and the worker send, run in order (delays not waited). */
class InProcessQueue implements WorkQueue {
  readonly waiting: WorkMessage[] = [];
  async send(body: unknown): Promise<void> {
    this.waiting.push(body as WorkMessage);
  }
  /** runWork never asks (the Lambda handler does, after a failure); a failure here ends the bench instead. */
  async retryIn(): Promise<void> {
    throw new Error('the bench queue runs each message once: it has no redelivery');
  }
}

/** Runs every waiting work message (and what they queue) through the worker; adds its times to `timing` when given. */
async function drain(worker: ComposedWorkerDeps, queue: InProcessQueue, timing?: PipelineTiming): Promise<void> {
  let delivered = 0;
  for (let message = queue.waiting.shift(); message; message = queue.waiting.shift()) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await runWork(worker, message, { attempt: 1, workId: `bench-${++delivered}-${Date.now()}` });
    const used = process.cpuUsage(cpu);
    if (!timing) continue;
    const spent = timing.get(message.kind) ?? { wall: 0, cpu: 0 };
    timing.set(message.kind, { wall: spent.wall + (performance.now() - started) / 1000, cpu: spent.cpu + (used.user + used.system) / 1e6 });
  }
}

/**
 * Writes each session's messages `batch` at a time (the sessions one after the other, each attached to the
 * memory first, as the engine table syncs them) and times the worker's work after each batch.
 */
export async function timePipelineSyncs(sessions: readonly (readonly Message[])[], batch: number): Promise<PipelineTiming> {
  const config = localConfig({
    KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-sync-cost-')),
    AWS_REGION: 'local',
    KMEM_GRAPH_WORD_VECTORS: 'false',
  });
  const queue = new InProcessQueue();
  const api = { ...composeMemoryDeps(config), queue };
  const worker = { ...composeWorkerDeps(api), queue };
  const accountId = (await createAccount(api, `sync-cost-${Date.now()}`)).account.id;
  const memory = await createMemory(api, accountId, { name: 'profile', memoryType: 'graph', ontology: 'culture', factExtraction: true });
  const timing: PipelineTiming = new Map();
  try {
    for (const messages of sessions) {
      const first = messages[0];
      if (!first) continue;
      const customer = first.customerUserId ? { customerUserId: first.customerUserId } : {};
      await createSession(api, accountId, { id: first.sessionId, ...customer });
      await addSessions(api, accountId, memory.id, [first.sessionId]);
      await drain(worker, queue);
      for (let start = 0; start < messages.length; start += batch) {
        for (const message of messages.slice(start, start + batch)) {
          const { id, sessionId, role, content, createdAt } = message;
          await createMessage(api, accountId, { id, sessionId, role, content, createdAt });
        }
        await drain(worker, queue, timing);
      }
    }
  } finally {
    await releaseWorkerDeps(worker);
  }
  return timing;
}

/** The pipeline's table: the whole sync per message, by work kind, and against the engine's on-minus-off extra. */
export function pipelineTable(runs: readonly PipelineTiming[], messages: number, extra: Spent): string[] {
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const ms = (seconds: number) => ((seconds / messages) * 1000).toFixed(2);
  const total = (run: PipelineTiming, part: keyof Spent) => [...run.values()].reduce((sum, spent) => sum + spent[part], 0);
  const kinds = [...new Set(runs.flatMap((run) => [...run.keys()]))];
  const row = (label: string, part: (run: PipelineTiming) => Spent | undefined) => {
    const wall = median(runs.map((run) => part(run)?.wall ?? 0));
    const cpu = median(runs.map((run) => part(run)?.cpu ?? 0));
    return `| ${label} | ${ms(wall)} | ${ms(cpu)} |`;
  };
  const spentOn = (run: PipelineTiming, part: keyof Spent, kinds: readonly string[]) =>
    kinds.reduce((sum, kind) => sum + (run.get(kind as WorkMessage['kind'])?.[part] ?? 0), 0);
  const memoryKinds = kinds.filter((kind) => kind.startsWith('memory.'));
  const memoryWork = (run: PipelineTiming): Spent => ({ wall: spentOn(run, 'wall', memoryKinds), cpu: spentOn(run, 'cpu', memoryKinds) });
  const whole = { wall: median(runs.map((run) => total(run, 'wall'))), cpu: median(runs.map((run) => total(run, 'cpu'))) };
  const ofMemory = { wall: median(runs.map((run) => memoryWork(run).wall)), cpu: median(runs.map((run) => memoryWork(run).cpu)) };
  const ratio = (of: Spent, part: keyof Spent) => (of[part] / (of[part] - extra[part])).toFixed(2);
  return [
    `| the worker's work per message (validity and profiles on: the product), median of ${runs.length} | ms per message | CPU ms per message |`,
    '|---|---|---|',
    ...kinds.map((kind) => row(kind, (run) => run.get(kind))),
    row('**whole sync (all of the above)**', (run) => ({ wall: total(run, 'wall'), cpu: total(run, 'cpu') })),
    `| engine table's extra of validity and profiles (incremental pass minus off) | ${ms(extra.wall)} | ${ms(extra.cpu)} |`,
    `| whole / (whole - extra): the whole sync against the same without the engine's extra (not run: the pipeline has no off) | ${ratio(whole, 'wall')} | ${ratio(whole, 'cpu')} |`,
    row(`the memory's own work (${memoryKinds.join(', ')})`, memoryWork),
    `| memory / (memory - extra): the same, the account's message index and summaries left out | ${ratio(ofMemory, 'wall')} | ${ratio(ofMemory, 'cpu')} |`,
  ];
}
