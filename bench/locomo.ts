/**
 * LoCoMo retrieval benchmark: every conversation of the development split loaded through the API of a
 * local runtime (in its own process) as sessions and messages of one vector memory per conversation,
 * then every question asked of its conversation's memory with the engine `GET /memory/` uses.
 *
 *   npm run bench:locomo [-- --data ../shared/bench-data/locomo/locomo_dev.json] [--loads spaced,same] [--params JSON] [--dump FILE] [--cv K] [--cv-grid rank|time]
 *   (or: npx tsx bench/locomo.ts …)
 *
 * Two loads (`--loads`): turns one second apart, and every turn of a session at the session's time (as
 * imported history often is). Prints a markdown table: for each load, memory retrieval's Recall@5/10/25/50
 * overall and per category and message search's (`GET /messages/search`, filtered to the conversation's
 * customer) overall, beside the LoCoMo paper's DRAGON rows and plain BM25, with the wall time. Turns are ranked in this process over the child's stores
 * (bench/locomo/engine.ts) because the HTTP answer has no chunk ids; every question is also asked over
 * HTTP and the two payloads compared, so the figures are those of the API. `--params` passes ranking
 * overrides (functions/engine/retrieval/params.ts) for tuning (the parity check is then skipped);
 * `--dump` writes each question's ranked dia_ids as JSON. `--cv K` adds the K-fold cross-validation of the
 * ranking constants over the first load (bench/locomo/cross-validation.ts); `--cv-grid time`, of the time
 * prior's weights. The data is read where it lies.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RankParamOverrides } from '../functions/engine/retrieval/params';
import { loadLocomo } from './locomo/dataset';
import { httpPayload, openEngine, searchedMessageIds } from './locomo/engine';
import { importConversation, type ImportedConversation, type Load } from './locomo/import-conversation';
import { crossValidateLocomo } from './locomo/cross-validation';
import { questionRecalls, recallRows, type ScoredQuestion } from './locomo/recall';
import { renderReport, type SystemRows } from './locomo/report';
import { apiClient, type ApiClient } from './support/api';
import { startServerProcess } from './support/server-process';

const DEPTH = 50;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/locomo/locomo_dev.json') },
    params: { type: 'string' },
    dump: { type: 'string' },
    loads: { type: 'string', default: 'spaced,same' },
    cv: { type: 'string' },
    'cv-grid': { type: 'string', default: 'rank' },
  },
  strict: true,
});
const params = values.params ? (JSON.parse(values.params) as RankParamOverrides) : undefined;
const conversations = loadLocomo(values.data);
const folds = values.cv === undefined ? undefined : Number(values.cv);
if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2))
  throw new Error(`--cv must be a number of folds ≥ 2, got '${values.cv}'`);
const cvGrid = values['cv-grid'];
if (cvGrid !== 'rank' && cvGrid !== 'time') throw new Error(`--cv-grid must be rank or time, got '${cvGrid}'`);

interface Asked extends ScoredQuestion {
  conversation: string;
  question: string;
  evidence: string[];
  ranked: string[];
}

const LOADS: readonly Load[] = values.loads.split(',').map((load) => {
  if (load !== 'spaced' && load !== 'same') throw new Error(`--loads: '${load}' is neither spaced nor same`);
  return load;
});
const LOAD_NAMES: Record<Load, string> = { spaced: 'turns 1 s apart', same: "every turn at its session's time" };

const wall = performance.now();
const server = await startServerProcess();
try {
  const api = apiClient(server.info.url, server.info.apiKey);
  const engine = openEngine(server.dataDir);
  const systems: SystemRows[] = [];
  const dumped: Record<string, Asked[]> = {};
  const parity = { same: 0, differ: 0, merged: 0 };
  const crossValidation: string[] = [];
  let importMs = 0;
  let queryMs = 0;
  let loaded = 0;
  for (const load of LOADS) {
    let started = performance.now();
    const imported: ImportedConversation[] = [];
    for (const conversation of conversations) {
      imported.push(await importConversation(api, conversation, load));
      process.stderr.write(`[locomo] ${load} ${conversation.id} loaded (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    }
    loaded += imported.reduce((sum, memory) => sum + memory.diaIdOf.size, 0);
    await untilMessagesIndexed(engine, imported[0]?.accountId ?? '', loaded);
    importMs += performance.now() - started;
    started = performance.now();
    const memoryAsked: Asked[] = [];
    const searchAsked: Asked[] = [];
    for (const memory of imported) {
      const diaIds = (ids: readonly string[]) => ids.map((id) => memory.diaIdOf.get(id) ?? id);
      for (const question of memory.conversation.questions) {
        const ranked = await engine.rank(memory.accountId, memory.memoryId, question.question, DEPTH, params);
        const byMemory = diaIds(ranked.messageIds);
        memoryAsked.push({
          ...question,
          conversation: memory.conversation.id,
          ranked: byMemory,
          recalls: questionRecalls(question.evidence, byMemory),
        });
        parity.merged += ranked.mergedItems;
        if (!params) parity[(await samePayload(api, memory.memoryId, question.question, ranked.payload)) ? 'same' : 'differ']++;
        const bySearch = diaIds(await searchedMessageIds(api, memory.customerUserID, question.question, DEPTH));
        searchAsked.push({
          ...question,
          conversation: memory.conversation.id,
          ranked: bySearch,
          recalls: questionRecalls(question.evidence, bySearch),
        });
      }
    }
    queryMs += performance.now() - started;
    if (folds !== undefined && crossValidation.length === 0)
      crossValidation.push(...(await crossValidateLocomo(engine, imported, folds, cvGrid)));
    systems.push({ name: `memory retrieval, ${LOAD_NAMES[load]}`, rows: recallRows(memoryAsked) });
    systems.push({ name: `message search, ${LOAD_NAMES[load]}`, rows: recallRows(searchAsked).slice(0, 1) });
    dumped[`memory.${load}`] = memoryAsked;
    dumped[`search.${load}`] = searchAsked;
  }
  if (values.dump) writeFileSync(values.dump, JSON.stringify(dumped, null, 1));
  const notes = [
    params
      ? `Ranking overrides: \`${JSON.stringify(params)}\` (parity check skipped).`
      : `HTTP parity (GET /memory/ topK=${DEPTH}): ${parity.same} identical payloads, ${parity.differ} different.`,
    `Payload items merging more than one turn: ${parity.merged}.`,
    `Message search: \`GET /messages/search?customerUserID=<the conversation>&topK=${DEPTH}\` over HTTP (overall row only).`,
  ];
  console.log(
    renderReport({
      command: commandLine(),
      conversations: conversations.length,
      turns: loaded / LOADS.length,
      systems,
      importMs,
      queryMs,
      wallMs: performance.now() - wall,
      notes,
    }),
  );
  if (crossValidation.length > 0) console.log(crossValidation.join('\n'));
} finally {
  await server.stop();
}

/** Waits until the account's message index holds `count` messages (the worker builds it after the writes). */
async function untilMessagesIndexed(engine: ReturnType<typeof openEngine>, accountId: string, count: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  while ((await engine.indexedMessages(accountId)) < count) {
    if (Date.now() > deadline) throw new Error(`the message index holds fewer than ${count} messages after 600 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function samePayload(api: ApiClient, memoryId: string, query: string, payload: readonly string[]): Promise<boolean> {
  const answered = await httpPayload(api, memoryId, query, DEPTH);
  return answered.length === payload.length && answered.every((content, i) => content === payload[i]);
}

function commandLine(): string {
  const args = process.argv.slice(2).map((arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : `'${arg}'`));
  const base = process.env.npm_lifecycle_event === 'bench:locomo' ? 'npm run bench:locomo' : 'npx tsx bench/locomo.ts';
  return args.length ? `${base}${base.startsWith('npm') ? ' --' : ''} ${args.join(' ')}` : base;
}
