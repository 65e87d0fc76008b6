/**
 * Conversation ingestion benchmark: the two kinds of traffic conversation memory meets, against a local
 * runtime in its own process, timed from the client's last request until every message is searchable
 * (the memory's index holds them all and a search for the last one finds it), with the index builds it
 * took (the memory's `indexVersion` before and after).
 *
 *   npm run bench:conversations   (or: npx tsx bench/conversations.ts)
 *
 * - import: 29 sessions of 629 existing messages (every turn of a session at the session's time), then
 *   one `POST /memories/add-sessions` with all of them. Target: searchable in under 15 s.
 * - burst: 50 sessions attached, then 1,000 messages written with 20 requests in flight. Target: under 30 s.
 */
import { apiClient } from './support/api';
import { importHistory, messageBurst, type Scenario, untilSearchable } from './support/conversation-traffic';
import { machineFacts } from './support/report';
import { startServerProcess } from './support/server-process';

interface Row {
  scenario: string;
  messages: number;
  sendMs: number;
  searchableMs: number;
  builds: number;
  targetMs: number;
}

const server = await startServerProcess();
try {
  const api = apiClient(server.info.url, server.info.apiKey);
  const rows: Row[] = [];
  const measure = async (name: string, targetMs: number, run: () => Promise<Scenario>): Promise<void> => {
    const started = performance.now();
    const scenario = await run();
    const version = await untilSearchable(api, scenario, 600_000);
    const searchableMs = performance.now() - scenario.sentAt;
    rows.push({
      scenario: name,
      messages: scenario.messages.length,
      sendMs: scenario.sentAt - started,
      searchableMs,
      builds: version - scenario.versionBefore,
      targetMs,
    });
    process.stderr.write(`[conversations] ${name} done\n`);
  };
  await measure('import: 29 sessions, 629 messages, attached in one call', 15_000, () =>
    importHistory(api, 'import', { sessions: 29, messages: 629, sameTime: true }),
  );
  await measure('burst: 1,000 messages across 50 attached sessions, 20 in flight', 30_000, () =>
    messageBurst(api, 'burst', { sessions: 50, messages: 1000, concurrency: 20 }),
  );
  console.log(
    [
      '## kmem conversation ingestion (local runtime)',
      '',
      ...machineFacts(),
      `- command: \`${process.env.npm_lifecycle_event === 'bench:conversations' ? 'npm run bench:conversations' : 'npx tsx bench/conversations.ts'}\``,
      '- searchable: from the last request answered until the index holds every message and a search finds the last one',
      '',
      '| scenario | messages | sending s | searchable after s | index builds | target |',
      '|---|---:|---:|---:|---:|---|',
      ...rows.map((row) => {
        const verdict = row.searchableMs < row.targetMs ? 'met' : 'not met';
        return `| ${row.scenario} | ${row.messages} | ${seconds(row.sendMs)} | ${seconds(row.searchableMs)} | ${row.builds} | < ${row.targetMs / 1000} s: ${verdict} |`;
      }),
    ].join('\n'),
  );
} finally {
  await server.stop();
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}
