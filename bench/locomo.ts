/**
 * LoCoMo retrieval benchmark: every conversation of the development split loaded through the API of a
 * local runtime (in its own process) as sessions and messages of one vector memory per conversation,
 * then every question asked of its conversation's memory with the engine `GET /memory/` uses.
 *
 *   npm run bench:locomo [-- --data ../shared/bench-data/locomo/locomo_dev.json] [--params JSON] [--dump FILE]
 *   (or: npx tsx bench/locomo.ts …)
 *
 * Prints a markdown table: Recall@5/10/25/50 overall and per category, beside the LoCoMo paper's DRAGON
 * rows and plain BM25, with the wall time. Turns are ranked in this process over the child's stores
 * (bench/locomo/engine.ts) because the HTTP answer has no chunk ids; every question is also asked over
 * HTTP and the two payloads compared, so the figures are those of the API. `--params` passes ranking
 * overrides (functions/core/retrieval/params.ts) for tuning (the parity check is then skipped);
 * `--dump` writes each question's ranked dia_ids as JSON. The data is read where it lies.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RankParamOverrides } from '../functions/core/retrieval/params';
import { loadLocomo } from './locomo/dataset';
import { httpPayload, openEngine } from './locomo/engine';
import { importConversation, type ImportedConversation } from './locomo/import-conversation';
import { questionRecalls, recallRows, type ScoredQuestion } from './locomo/recall';
import { renderReport } from './locomo/report';
import { apiClient, type ApiClient } from './support/api';
import { startServerProcess } from './support/server-process';

const DEPTH = 50;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/locomo/locomo_dev.json') },
    params: { type: 'string' },
    dump: { type: 'string' },
  },
  strict: true,
});
const params = values.params ? (JSON.parse(values.params) as RankParamOverrides) : undefined;
const conversations = loadLocomo(values.data);

interface Asked extends ScoredQuestion {
  conversation: string;
  question: string;
  evidence: string[];
  ranked: string[];
}

const wall = performance.now();
const server = await startServerProcess();
try {
  const api = apiClient(server.info.url, server.info.apiKey);
  const engine = openEngine(server.dataDir);
  let started = performance.now();
  const imported: ImportedConversation[] = [];
  for (const conversation of conversations) {
    imported.push(await importConversation(api, conversation));
    process.stderr.write(`[locomo] ${conversation.id} loaded (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  const importMs = performance.now() - started;
  started = performance.now();
  const asked: Asked[] = [];
  const parity = { same: 0, differ: 0, merged: 0 };
  for (const memory of imported) {
    for (const question of memory.conversation.questions) {
      const ranked = await engine.rank(memory.accountId, memory.memoryId, question.question, DEPTH, params);
      const diaIds = ranked.messageIds.map((id) => memory.diaIdOf.get(id) ?? id);
      asked.push({ ...question, conversation: memory.conversation.id, ranked: diaIds, recalls: questionRecalls(question.evidence, diaIds) });
      parity.merged += ranked.mergedItems;
      if (!params) parity[(await samePayload(api, memory.memoryId, question.question, ranked.payload)) ? 'same' : 'differ']++;
    }
  }
  const queryMs = performance.now() - started;
  if (values.dump) writeFileSync(values.dump, JSON.stringify(asked, null, 1));
  const notes = [
    params ? `Ranking overrides: \`${JSON.stringify(params)}\` (parity check skipped).` : `HTTP parity (GET /memory/ topK=${DEPTH}): ${parity.same} identical payloads, ${parity.differ} different.`,
    `Payload items merging more than one turn: ${parity.merged}.`,
  ];
  console.log(
    renderReport({
      command: commandLine(),
      conversations: imported.length,
      turns: imported.reduce((sum, memory) => sum + memory.diaIdOf.size, 0),
      rows: recallRows(asked),
      importMs,
      queryMs,
      wallMs: performance.now() - wall,
      notes,
    }),
  );
} finally {
  await server.stop();
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
