/**
 * The metrics port end to end on the local runtime: processing a file, ingesting it and querying the
 * memory record files processed, extraction time, tokens, ingestion and index-build durations, index size
 * and retrieval latency, by kind and memory type, and GET /metrics answers their summary to loopback.
 */
import { describe, expect, it } from 'vitest';
import { env, get, ingest, post, textFile, upload, waitFor } from '../support/api';

interface Tally {
  name: string;
  dimension: string | null;
  count: number;
  sum: number;
}

const summary = async (): Promise<Tally[]> => ((await (await fetch(`${env().url}/metrics`)).json()) as { metrics: Tally[] }).metrics;
const find = (tallies: Tally[], name: string, dimension: string | null) =>
  tallies.find((t) => t.name === name && t.dimension === dimension);

/** The summary once `done` holds of it, or as it stands after 10 s. */
async function summaryWhen(done: (tallies: Tally[]) => boolean): Promise<Tally[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tallies = await summary();
    if (done(tallies) || Date.now() > deadline) return tallies;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('local metrics summary', () => {
  it('counts what the service did, by kind and memory type, at GET /metrics', async () => {
    const before = await summary();
    const file = await textFile('metrics.txt', 'Operators watch the files processed, the tokens charged and the latency of retrieval.');
    const memory = (await post('/memories/create', { name: 'watched', memoryType: 'vector' })).body.data;
    expect((await ingest(memory, [file.id])).step).toBe('ready');
    expect((await get(`/memory/?memoryID=${memory.id}&query=operators`)).status).toBe(200);
    const expected = [
      ['FilesProcessed', 'text'],
      ['ExtractionSeconds', 'text'],
      ['IngestionSeconds', 'vector'],
      ['IndexBuildSeconds', 'vector'],
      ['IndexBytes', 'vector'],
      ['RetrievalMs', 'vector'],
      ['TokensIngested', null],
      ['TokensCharged', 'ingestion'],
    ] as const;
    const grew = (after: Tally[], name: string, dimension: string | null) =>
      (find(after, name, dimension)?.count ?? 0) - (find(before, name, dimension)?.count ?? 0);
    // the worker emits the ingestion's own metrics just after it marks the memory ready (ingest-memory.ts):
    // a client that saw `ready` may read the summary a moment before them
    const after = await summaryWhen((tallies) => expected.every(([name, dimension]) => grew(tallies, name, dimension) >= 1));
    for (const [name, dimension] of expected) {
      expect(grew(after, name, dimension), `${name} ${dimension}`).toBeGreaterThanOrEqual(1);
    }
    expect(find(after, 'IndexBytes', 'vector')?.sum).toBeGreaterThan(0);
    expect(JSON.stringify(after)).not.toContain(memory.id);
  });

  it('counts a file past an extraction bound as a hostile file refused, by file type', async () => {
    const before = find(await summary(), 'HostileFilesRefused', 'document')?.count ?? 0;
    const deep = `<html><body>${'<div>'.repeat(5_000)}deep${'</div>'.repeat(5_000)}</body></html>`;
    const uploaded = await upload('deep.html', deep, undefined, 'text/html');
    const created = await post('/files/create', { name: 'deep.html', key: uploaded.body.data.key, fileType: 'document' });
    const done = await waitFor(`/files/get/${created.body.data.id}`, (b) => b.data?.state === 'failed' || b.data?.state === 'ready');
    expect(done.data).toMatchObject({ state: 'failed', error: expect.stringMatching(/nests its elements/) });
    expect((find(await summary(), 'HostileFilesRefused', 'document')?.count ?? 0) - before).toBe(1);
  });
});
