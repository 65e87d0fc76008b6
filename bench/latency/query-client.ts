/**
 * Times `GET /memory/` over HTTP with a keep-alive agent: each sample is the wall time from sending the
 * request to the last byte of a 200 answer. Runs queries one after another, or from N closed-loop clients
 * for a fixed time (each client sends its next query as soon as the previous one is answered).
 */
import { Agent, request } from 'node:http';

export interface QueryTarget {
  url: string;
  apiKey: string;
  memoryId: string;
  /** A `filter` (JSON) every query carries. */
  filter?: string;
  /** Passages asked for (default 10). */
  topK?: number;
}

export interface TimedRun {
  /** Latency of every answered query, in ms, in the order answered. */
  samples: number[];
  wallMs: number;
}

const TOP_K = 10;

function queryPath(memoryId: string, query: string, topK: number, filter?: string): string {
  const params = new URLSearchParams({ memoryID: memoryId, query, topK: String(topK), facts: 'true', ...(filter ? { filter } : {}) });
  return `/memory/?${params.toString()}`;
}

export class QueryClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly target: QueryTarget) {}

  /** One query; answers its latency in ms, and throws unless the answer is 200 with a payload. */
  async time(query: string): Promise<number> {
    const started = performance.now();
    const body = await this.get(queryPath(this.target.memoryId, query, this.target.topK ?? TOP_K, this.target.filter));
    const ms = performance.now() - started;
    const answer = JSON.parse(body) as { payload?: unknown[] };
    if (!Array.isArray(answer.payload)) throw new Error(`answer without payload: ${body.slice(0, 300)}`);
    return ms;
  }

  async sequential(queries: readonly string[]): Promise<TimedRun> {
    const started = performance.now();
    const samples: number[] = [];
    for (const query of queries) samples.push(await this.time(query));
    return { samples, wallMs: performance.now() - started };
  }

  /** `connections` clients for `seconds`, taking the queries in turn (cycling) from one shared sequence. */
  async concurrent(queries: readonly string[], connections: number, seconds: number): Promise<TimedRun> {
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const samples: number[] = [];
    let next = 0;
    const client = async () => {
      while (performance.now() < deadline) samples.push(await this.time(queries[next++ % queries.length]!));
    };
    await Promise.all(Array.from({ length: connections }, client));
    return { samples, wallMs: performance.now() - started };
  }

  close(): void {
    this.agent.destroy();
  }

  private get(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const sent = request(`${this.target.url}${path}`, { agent: this.agent, headers: { 'X-API-Key': this.target.apiKey } }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const body = Buffer.concat(parts).toString('utf8');
          if (response.statusCode === 200) resolve(body);
          else reject(new Error(`GET ${path.slice(0, 120)}: ${response.statusCode} ${body.slice(0, 300)}`));
        });
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
  }
}
