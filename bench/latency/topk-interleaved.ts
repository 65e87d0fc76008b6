/**
 * topK values compared fairly: the warm runs of each `--top-k` value follow one another over the same claims,
 * so a later value finds what the earlier ones left in the server's caches (sentence vectors, file records,
 * what chunks state of time) and looks cheaper than it is. Here every claim is asked at every topK back to
 * back, the first in turn rotating, so each value is asked first as often as the others.
 */
import type { ServerProcess } from '../support/server-process';
import type { BuiltMemory } from './build';
import type { LatencyOptions } from './options';
import { QueryClient } from './query-client';
import { type LatencySummary, summarise } from './stats';

export interface InterleavedTopK {
  topK: number;
  sequential: LatencySummary;
  /** Server CPU per query in ms (Linux; summed over the queries of this topK), undefined elsewhere. */
  serverCpuMsPerQuery?: number;
}

/** `options.queries` claims (from `from` on, cycling) each asked at every topK in rotating order. */
export async function interleavedTopK(
  options: LatencyOptions,
  server: ServerProcess,
  memory: BuiltMemory,
  claims: readonly string[],
  from: number,
): Promise<InterleavedTopK[]> {
  const clients = options.topKs.map((topK) => new QueryClient({ ...server.info, memoryId: memory.memoryId, topK }));
  try {
    const samples: number[][] = clients.map(() => []);
    const cpu = clients.map(() => 0);
    const started = performance.now();
    for (let i = 0; i < options.queries; i++) {
      const claim = claims[(from + i) % claims.length] ?? '';
      for (let j = 0; j < clients.length; j++) {
        const which = (i + j) % clients.length;
        const cpuBefore = server.cpuMs();
        samples[which]?.push(await (clients[which] as QueryClient).time(claim));
        const cpuAfter = server.cpuMs();
        if (cpuBefore !== undefined && cpuAfter !== undefined) cpu[which] = (cpu[which] ?? 0) + cpuAfter - cpuBefore;
      }
    }
    const wallMs = (performance.now() - started) / clients.length;
    return options.topKs.map((topK, which) => ({
      topK,
      sequential: summarise({ samples: samples[which] ?? [], wallMs }),
      ...(server.cpuMs() !== undefined ? { serverCpuMsPerQuery: (cpu[which] ?? 0) / options.queries } : {}),
    }));
  } finally {
    for (const client of clients) client.close();
  }
}
