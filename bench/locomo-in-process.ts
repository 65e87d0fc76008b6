/**
 * LoCoMo in one process, for iterating on ranking: every conversation's turns become the messages
 * `bench/locomo.ts` writes over the API (same ids, roles, contents and times), cut by
 * `conversationChunks` and built by `buildIndexVersion` as the worker does for a vector memory, then every
 * question asked through `retrieveFromIndex` (the ranking `GET /memory/` runs, time in queries and replies
 * beside asking turns included). No server, no HTTP, no queue: about 30 s instead of about 5 minutes.
 * The figures equal bench/locomo.ts's memory-retrieval rows (0.717 / 0.817 / 0.872 / 0.894 both before
 * #28); bench/locomo.ts stays the measure (it goes through the API and checks HTTP parity).
 *
 *   npx tsx bench/locomo-in-process.ts [--data FILE] [--conversations conv-26,conv-30] [--load spaced|same]
 *     [--params JSON] [--time-prior JSON] [--misses CATEGORY[:COUNT]] [--dump FILE]
 *
 * `--time-prior '{"nearWeight":0,"statesWeight":0}'` ranks without time in queries (the prior's weights,
 * functions/engine/retrieval/time-prior.ts; the defaults otherwise).
 *
 * `--misses 1:12` prints twelve multi-hop questions missed at R@5 with their evidence turns (rank in the
 * top 50, or -) and the five turns that came back.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGraphWordVectors, loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import { conversationChunks } from '../functions/core/ingest/conversation-chunks';
import { buildIndexVersion } from '../functions/core/ingest/index-build';
import { OFFLINE_GRAPH_EXTRACTOR } from '../functions/core/ingest/memory-graph';
import type { Message } from '../functions/core/model';
import { retrieveFromIndex } from '../functions/core/use-cases/retrieve-memory';
import type { RankParamOverrides } from '../functions/engine/retrieval/params';
import type { TimePriorParams } from '../functions/engine/retrieval/time-prior';
import { loadLocomo, type Conversation } from './locomo/dataset';
import { contentOf, type Load } from './locomo/import-conversation';
import { questionRecalls, recallRows, type ScoredQuestion } from './locomo/recall';
import { benchmarkMemory } from './quality/corpus';

const DEPTH = 50;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/locomo/locomo_dev.json') },
    conversations: { type: 'string' },
    load: { type: 'string', default: 'spaced' },
    params: { type: 'string' },
    'time-prior': { type: 'string' },
    misses: { type: 'string' },
    dump: { type: 'string' },
  },
  strict: true,
});
if (values.load !== 'spaced' && values.load !== 'same') throw new Error(`--load: '${values.load}' is neither spaced nor same`);
const load: Load = values.load;
const params = values.params ? (JSON.parse(values.params) as RankParamOverrides) : undefined;
const timePrior = values['time-prior'] ? (JSON.parse(values['time-prior']) as Partial<TimePriorParams>) : undefined;
const wanted = values.conversations?.split(',');
const conversations = loadLocomo(values.data).filter((conversation) => !wanted || wanted.includes(conversation.id));
if (conversations.length === 0) throw new Error(`--conversations: none of '${values.conversations}' is in ${values.data}`);

interface Asked extends ScoredQuestion {
  conversation: Conversation;
  question: string;
  evidence: string[];
  ranked: string[];
}

const embedder = loadWordVectorEmbedder();
const asked: Asked[] = [];
let queryMs = 0;
for (const conversation of conversations) {
  const chunks = conversation.sessions.flatMap((session) => conversationChunks(sessionMessages(conversation, session.number)));
  const built = await buildIndexVersion(
    benchmarkMemory('vector'),
    chunks,
    { previous: undefined, added: new Map(), kept: new Set(), managed: false },
    { embedder: () => embedder, graphWordVectors: loadGraphWordVectors, graphExtractor: () => OFFLINE_GRAPH_EXTRACTOR },
  );
  const loaded = { retrieval: built.retrieval, graph: null, chunks: new Map(chunks.map((chunk) => [chunk.id, chunk])) };
  const prefix = `msg:${conversation.id}.`;
  const started = performance.now();
  for (const { question, evidence, category } of conversation.questions) {
    const request = { query: question, topK: DEPTH, facts: false, assisted: false };
    const outcome = await retrieveFromIndex(loaded, request, {
      embedder,
      ...(params ? { params } : {}),
      ...(timePrior ? { timePrior } : {}),
    });
    const ranked = outcome.items.flatMap((item) => item.ordinals.map((o) => (built.retrieval.chunks.ids[o] ?? '').slice(prefix.length)));
    asked.push({ conversation, question, evidence, category, ranked, recalls: questionRecalls(evidence, ranked) });
  }
  queryMs += performance.now() - started;
}

console.log(`| questions | count | R@5 | R@10 | R@25 | R@50 |\n|---|---:|---:|---:|---:|---:|`);
for (const row of recallRows(asked))
  console.log(`| ${row.label} | ${row.questions} | ${[5, 10, 25, 50].map((k) => row.recalls[k as 5].toFixed(3)).join(' | ')} |`);
console.log(`\n${conversations.length} conversations, load ${load}, ${(queryMs / Math.max(1, asked.length)).toFixed(1)} ms per question`);
if (values.misses) printMisses(values.misses);
if (values.dump)
  writeFileSync(
    values.dump,
    JSON.stringify(asked.map(({ conversation, ...question }) => ({ conversation: conversation.id, ...question }))),
  );

/** A session's turns as the messages bench/locomo/import-conversation.ts writes. */
function sessionMessages(conversation: Conversation, number: number): Message[] {
  const session = conversation.sessions.find((candidate) => candidate.number === number);
  const sessionId = `${load}.${conversation.id}.session_${number}`;
  return (session?.turns ?? []).map((turn, t) => {
    const at = new Date((session?.startedAt.getTime() ?? 0) + (load === 'spaced' ? t * 1000 : 0)).toISOString();
    return {
      id: `${conversation.id}.${turn.diaId}`,
      accountId: 'bench',
      sessionId,
      role: turn.speaker === conversation.speakers[0] ? 'user' : 'assistant',
      content: contentOf(turn),
      customerUserId: `${load}.${conversation.id}`,
      createdAt: at,
      updatedAt: at,
      sequence: t + 1,
    };
  });
}

function printMisses(spec: string): void {
  const [category, count] = spec.split(':').map(Number);
  const textOf = (conversation: Conversation, diaId: string): string => {
    for (const session of conversation.sessions) {
      const turn = session.turns.find((candidate) => candidate.diaId === diaId);
      if (turn) return contentOf(turn).slice(0, 140);
    }
    return '(no such turn)';
  };
  const missed = asked.filter((question) => question.category === category && question.recalls[5] < 1).slice(0, count ?? 12);
  for (const question of missed) {
    console.log(`\n${question.conversation.id}: ${question.question} (R@5 ${question.recalls[5].toFixed(2)})`);
    for (const diaId of question.evidence) {
      const rank = question.ranked.indexOf(diaId);
      console.log(`  evidence ${diaId} rank ${rank < 0 ? '-' : rank + 1}: ${textOf(question.conversation, diaId)}`);
    }
    for (const diaId of question.ranked.slice(0, 5)) console.log(`  came back ${diaId}: ${textOf(question.conversation, diaId)}`);
  }
}
