/** The stored graph (version 3, compact) and the version 2 shape export archives carry. */
import { describe, expect, it } from 'vitest';
import { addFile, createMemoryGraph, type MemoryGraph } from '../../../functions/engine/graph/graph-build';
import { graphInvariantViolations } from '../../../functions/engine/graph/graph-invariants';
import {
  type GraphSnapshot,
  portableGraphSnapshot,
  restoreMemoryGraph,
  snapshotGraph,
} from '../../../functions/engine/graph/graph-snapshot';
import { refreshValidity } from '../../../functions/engine/graph';

const DAY = 86_400_000;

/** A session of a customer user's messages, one chunk each (`msg:<id>`), a day apart; plus a file. */
function conversationGraph(): MemoryGraph {
  const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
  const said = ['I live in Paris.', 'I love tea and coffee.', 'Alice Martin works at Globex.', 'We moved to Berlin last month!'];
  const chunks = said.map((text, i) => ({ id: `msg:m${i}`, text }));
  const origins = new Map(
    said.map((text, i) => [
      `msg:m${i}`,
      { time: new Date(Date.UTC(2024, 0, 1) + i * DAY).toISOString(), sourceId: `m${i}`, speaker: 'user-1', text },
    ]),
  );
  addFile(memory, { fileId: 'session:s1', chunks }, { chunks: origins });
  const fileChunk = 'f1:0';
  addFile(
    memory,
    { fileId: 'f1', chunks: [{ id: fileChunk, text: 'Bob Stone is CEO of Initech.' }] },
    { chunks: new Map([[fileChunk, { time: '2024-02-01T00:00:00.000Z', sourceId: 'f1' }]]) },
  );
  refreshValidity(memory.graph);
  return memory;
}

const roundTrip = (snapshot: GraphSnapshot): GraphSnapshot => JSON.parse(JSON.stringify(snapshot)) as GraphSnapshot;

describe('graph snapshots', () => {
  it('store chunk origins and statements as rows, and restore the same graph', () => {
    const memory = conversationGraph();
    const stored = roundTrip(snapshotGraph(memory.graph));
    expect(stored.version).toBe(3);
    expect(stored.chunks.every((chunk) => chunk.time === undefined && chunk.sourceId === undefined)).toBe(true);
    const session = stored.files.find((file) => file.fileId === 'session:s1');
    expect(session?.statements).toBeUndefined();
    // "I love tea and coffee." gives two statements of one sentence: the second row does not repeat it
    expect(session?.statementRows?.filter((row) => row[6] === null)).toHaveLength(1);
    expect(session?.chunkOrigins?.[0]).toEqual(['2024-01-01T00:00:00.000Z', 0]);
    const restored = restoreMemoryGraph(stored, { factExtraction: true });
    expect(graphInvariantViolations(restored.graph)).toEqual([]);
    expect([...restored.graph.chunks.values()]).toEqual([...memory.graph.chunks.values()]);
    expect(restored.graph.files.get('session:s1')?.statements).toEqual(memory.graph.files.get('session:s1')?.statements);
    expect(snapshotGraph(restored.graph)).toEqual(snapshotGraph(memory.graph));
    const residence = restored.graph.files.get('session:s1')?.statements.filter((statement) => statement.kind === 'residence');
    expect(residence?.map(({ value, validTo, sourceId }) => ({ value, validTo, sourceId }))).toEqual([
      { value: 'Paris', validTo: '2024-01-04T00:00:00.000Z', sourceId: 'm0' },
      { value: 'Berlin', validTo: null, sourceId: 'm3' },
    ]);
  });

  it('give archives the version 2 shape, which restores to the same graph', () => {
    const memory = conversationGraph();
    const portable = roundTrip(portableGraphSnapshot(roundTrip(snapshotGraph(memory.graph))));
    expect(portable.version).toBe(2);
    expect(portable.chunks.find((chunk) => chunk.id === 'msg:m2')).toEqual({
      id: 'msg:m2',
      fileId: 'session:s1',
      index: 2,
      time: '2024-01-03T00:00:00.000Z',
      sourceId: 'm2',
    });
    expect(portable.chunks.find((chunk) => chunk.id === 'f1:0')).toMatchObject({ sourceId: 'f1' });
    const session = portable.files.find((file) => file.fileId === 'session:s1');
    expect(session?.chunkOrigins).toBeUndefined();
    expect(session?.statementRows).toBeUndefined();
    expect(session?.statements).toEqual(memory.graph.files.get('session:s1')?.statements);
    const restored = restoreMemoryGraph(portable, { factExtraction: true });
    expect(snapshotGraph(restored.graph)).toEqual(snapshotGraph(memory.graph));
    expect(portableGraphSnapshot(portable)).toBe(portable);
  });
});
