/**
 * The cost of keeping a session summary current (functions/engine/summary): for sessions of N messages
 * (LoCoMo turns, repeated to reach N), the time to take in one more message incrementally (the stored
 * state decoded, updated, summarised and encoded again, as the worker does) against summarising all N
 * messages again, and the stored state's size. Engine only: no server, no store.
 *
 *   npx tsx bench/session-summary.ts [--data ../shared/bench-data/locomo/locomo_dev.json] [--sizes 100,1000,10000]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addToSummary,
  emptySummaryState,
  selectSummary,
  type SummaryMessage,
  summaryStateFromJson,
  summaryStateToJson,
} from '../functions/engine';
import { loadLocomo } from './locomo/dataset';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/locomo/locomo_dev.json') },
    sizes: { type: 'string', default: '100,1000,10000' },
  },
});
const turns = loadLocomo(values.data).flatMap((conversation) =>
  conversation.sessions.flatMap((session) => session.turns.map((turn) => `${turn.speaker}: ${turn.text}`)),
);
const messagesOf = (count: number): SummaryMessage[] =>
  Array.from({ length: count }, (_, i) => ({ id: `m${i}`, content: turns[i % turns.length] ?? '' }));

const rows = ['| messages | full recompute (ms) | one message incrementally (ms) | state (KB) |', '|---:|---:|---:|---:|'];
for (const size of values.sizes.split(',').map(Number)) {
  const messages = messagesOf(size + 20);
  let started = performance.now();
  selectSummary(addToSummary(emptySummaryState(), messages.slice(0, size)));
  const fullMs = performance.now() - started;
  let stored = JSON.stringify(summaryStateToJson(addToSummary(emptySummaryState(), messages.slice(0, size))));
  const times: number[] = [];
  for (let i = size; i < size + 20; i++) {
    started = performance.now();
    const state = addToSummary(summaryStateFromJson(JSON.parse(stored)), [messages[i] as SummaryMessage]);
    selectSummary(state);
    stored = JSON.stringify(summaryStateToJson(state));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  rows.push(`| ${size} | ${fullMs.toFixed(1)} | ${median.toFixed(1)} | ${(Buffer.byteLength(stored) / 1024).toFixed(0)} |`);
}
console.log(rows.join('\n'));
