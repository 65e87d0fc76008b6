/**
 * The metrics port on Lambda: a point becomes Powertools EMF, counted in the metric's total (service
 * dimension only, what alarms read) and, with its dimension value, on its own line; per-account values are
 * metadata there, never dimensions.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';

// The fast tier's files share their thread's modules (vitest.config.ts): the observability module is imported
// afresh, after the environment it reads at import is set, and the environment is put back after.
const before = { disabled: process.env.POWERTOOLS_METRICS_DISABLED, dev: process.env.POWERTOOLS_DEV };
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
delete process.env.POWERTOOLS_DEV;
const written: string[] = [];
const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
  written.push(String(chunk));
  return true;
});
vi.resetModules();
const { metrics } = await import('../../../functions/observability');
const { emitMetric } = await import('../../../functions/core/metrics');
afterAll(() => {
  spy.mockRestore();
  restoreEnv('POWERTOOLS_METRICS_DISABLED', before.disabled);
  restoreEnv('POWERTOOLS_DEV', before.dev);
  vi.resetModules(); // the files after this one import the observability module of the environment put back
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

interface Emf {
  _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
  [key: string]: unknown;
}

describe('metrics as EMF', () => {
  it('writes a total and a dimensioned line, with account ids as metadata', () => {
    emitMetric('FilesFailed', 1, { dimension: 'pdf', properties: { accountId: 'acct-1', fileId: 'f-1' } });
    metrics.publishStoredMetrics();
    const lines = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('CloudWatchMetrics'))
      .map((line) => JSON.parse(line) as Emf);
    const withKind = lines.find((line) => line.kind === 'pdf');
    expect(withKind?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'kmem',
      Dimensions: [['service', 'kind']],
      Metrics: [{ Name: 'FilesFailed', Unit: 'Count' }],
    });
    expect(withKind).toMatchObject({ service: 'kmem', FilesFailed: 1, accountId: 'acct-1', fileId: 'f-1' });
    const total = lines.find((line) => line.kind === undefined && line.FilesFailed === 1);
    expect(total?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service']]);
    for (const line of lines) expect(line._aws.CloudWatchMetrics[0]?.Dimensions.flat()).not.toContain('accountId');
  });

  it('writes each dimensioned line with its own dimension value and metadata only (one instance writes them all)', () => {
    written.length = 0;
    emitMetric('RetrievalMs', 4, { dimension: 'vector', properties: { accountId: 'acct-a', memoryId: 'm-a' } });
    emitMetric('RetrievalMs', 7, { dimension: 'graph', properties: { accountId: 'acct-b' } });
    const lines = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('CloudWatchMetrics'))
      .map((line) => JSON.parse(line) as Emf);
    const dimensioned = lines.filter((line) => line.memoryType !== undefined);
    expect(dimensioned).toHaveLength(2);
    expect(dimensioned[0]).toMatchObject({ memoryType: 'vector', RetrievalMs: 4, accountId: 'acct-a', memoryId: 'm-a' });
    expect(dimensioned[1]).toMatchObject({ memoryType: 'graph', RetrievalMs: 7, accountId: 'acct-b' });
    expect(dimensioned[1]).not.toHaveProperty('memoryId');
    expect(dimensioned[1]?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'memoryType']]);
  });
});
