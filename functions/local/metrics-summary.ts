/**
 * The local runtime's view of its metrics: every point of the metrics port since start, summed by metric
 * and dimension value (count, sum, min, max), answered as JSON at GET /metrics to loopback callers.
 * No account ids: the summary is the operator's, across tenants, like the dashboard on AWS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricPoint, MetricSink, MetricUnit } from '../core/metrics';

interface Tally {
  name: string;
  dimension: string | null;
  unit: MetricUnit;
  count: number;
  sum: number;
  min: number;
  max: number;
}

export class MetricsSummary implements MetricSink {
  private readonly tallies = new Map<string, Tally>();
  private readonly since = new Date().toISOString();

  record(point: MetricPoint): void {
    const key = `${point.name}|${point.dimension ?? ''}`;
    const tally = this.tallies.get(key) ?? {
      name: point.name,
      dimension: point.dimension ?? null,
      unit: point.unit,
      count: 0,
      sum: 0,
      min: Infinity,
      max: -Infinity,
    };
    tally.count += 1;
    tally.sum += point.value;
    tally.min = Math.min(tally.min, point.value);
    tally.max = Math.max(tally.max, point.value);
    this.tallies.set(key, tally);
  }

  snapshot(): { since: string; metrics: Array<Tally & { average: number }> } {
    const metrics = [...this.tallies.values()]
      .sort((a, b) => a.name.localeCompare(b.name) || String(a.dimension).localeCompare(String(b.dimension)))
      .map((tally) => ({ ...tally, average: tally.sum / tally.count }));
    return { since: this.since, metrics };
  }

  /** Answers GET /metrics (loopback callers only) and says whether it did. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://local').pathname !== '/metrics') return false;
    const local = /^(127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? '');
    res.writeHead(local ? 200 : 403, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        local ? { status: 'success', ...this.snapshot() } : { error: 'metrics: only for callers on this machine', status: 'forbidden' },
      ),
    );
    return true;
  }
}
