/** Validity of facts and relations: times from sources, supersession of single-valued relations only, replaced files. */
import { describe, expect, it } from 'vitest';
import { addFile, createMemoryGraph, type MemoryGraph } from '../../../functions/engine/graph/graph-build';
import { graphInvariantViolations } from '../../../functions/engine/graph/graph-invariants';
import type { GraphFact } from '../../../functions/engine/graph/graph-model';
import { restoreMemoryGraph, snapshotGraph, type GraphSnapshot } from '../../../functions/engine/graph/graph-snapshot';
import { ontologySchema } from '../../../functions/engine/graph/ontology';
import { singleValuedRelation, supersededAt } from '../../../functions/engine/graph/validity';
import { refreshValidity } from '../../../functions/engine/graph';
import { statedDocumentDate } from '../../../functions/engine/graph/document-date';

const MARCH = '2024-03-01T00:00:00.000Z';
const JUNE = '2024-06-01T00:00:00.000Z';
const SEPTEMBER = '2024-09-01T00:00:00.000Z';

/** Adds a one-chunk file stated at `time`. */
function say(memory: MemoryGraph, fileId: string, text: string, time: string, replacedAt?: string): void {
  const chunkId = `${fileId}#0`;
  addFile(
    memory,
    { fileId, chunks: [{ id: chunkId, text }] },
    { chunks: new Map([[chunkId, { time, sourceId: fileId }]]), ...(replacedAt ? { replacedAt } : {}) },
  );
  refreshValidity(memory.graph);
}

function factsSaying(memory: MemoryGraph, words: string): GraphFact[] {
  return [...memory.graph.facts.values()].filter((fact) => fact.text.includes(words));
}

describe('single-valued relations', () => {
  const schema = ontologySchema('culture');

  it('are told from the predicate, whatever its inflection, and never when negated', () => {
    expect(singleValuedRelation(schema, 'lives in', undefined)?.slot).toBe('lives in');
    expect(singleValuedRelation(schema, 'moved to', undefined)?.slot).toBe('lives in');
    expect(singleValuedRelation(schema, 'works at', undefined)?.slot).toBe('works at');
    expect(singleValuedRelation(schema, 'joined', undefined)?.slot).toBe('works at');
    expect(singleValuedRelation(schema, 'married', undefined)?.slot).toBe('married to');
    expect(singleValuedRelation(schema, 'is ceo of', undefined)).toMatchObject({ slot: 'ceo of', by: 'object' });
    expect(singleValuedRelation(schema, 'likes', undefined)).toBeUndefined();
    expect(singleValuedRelation(schema, 'visited', undefined)).toBeUndefined();
    expect(singleValuedRelation(schema, 'does not live in', undefined)).toBeUndefined();
  });

  it('the support ontology holds one version per product', () => {
    const support = ontologySchema('support_requests');
    expect(singleValuedRelation(support, 'runs', 'version')?.slot).toBe('version of');
    expect(singleValuedRelation(support, 'runs', 'product')).toBeUndefined();
  });
});

describe('supersededAt', () => {
  it('ends a statement at the first later statement of another value in its group', () => {
    const events = [
      { group: 'a', value: 'paris', time: '1' },
      { group: 'a', value: 'paris', time: '2' },
      { group: 'a', value: 'berlin', time: '3' },
      { group: 'a', value: 'paris', time: '5' },
      { group: 'b', value: 'rome', time: '4' },
    ];
    expect(supersededAt(events, events)).toEqual(['3', '3', '5', null, null]);
  });

  it('does not let statements of the same time end each other', () => {
    const events = [
      { group: 'a', value: 'x', time: '1' },
      { group: 'a', value: 'y', time: '1' },
    ];
    expect(supersededAt(events, events)).toEqual([null, null]);
  });
});

describe('facts with validity', () => {
  it('start at their source time and are closed by a later value of a single-valued relation', () => {
    const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    say(memory, 'a', 'Alice Martin moved to Paris.', MARCH);
    say(memory, 'b', 'Alice Martin moved to Berlin.', JUNE);
    const [paris] = factsSaying(memory, 'Paris');
    const [berlin] = factsSaying(memory, 'Berlin');
    expect(paris).toMatchObject({ validFrom: MARCH, validTo: JUNE, sourceId: 'a' });
    expect(berlin).toMatchObject({ validFrom: JUNE, validTo: null, sourceId: 'b' });
    const relation = memory.graph.relations.get(paris?.relationId ?? '');
    expect(relation).toMatchObject({ validFrom: MARCH, validTo: JUNE });
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
  });

  it('keeps both values of a multi-valued relation', () => {
    const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    say(memory, 'a', 'Alice Martin visited Rome.', MARCH);
    say(memory, 'b', 'Alice Martin visited Vienna.', JUNE);
    expect(factsSaying(memory, 'visited').map((fact) => fact.validTo)).toEqual([null, null]);
  });

  it('a replaced file keeps what it no longer says, closed, and does not repeat what it still says', () => {
    const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    say(memory, 'doc', 'Alice Martin is CEO of Acme Corporation. Acme Corporation built the Falcon Bridge.', MARCH);
    say(memory, 'doc', 'Bob Stone is CEO of Acme Corporation. Acme Corporation built the Falcon Bridge.', SEPTEMBER, SEPTEMBER);
    const built = factsSaying(memory, 'Falcon Bridge');
    expect(built).toHaveLength(1);
    expect(built[0]).toMatchObject({ validFrom: MARCH, validTo: null });
    const file = memory.graph.files.get('doc');
    expect(file?.closedFacts.map((fact) => [fact.text, fact.validFrom, fact.validTo])).toEqual([
      ['Alice Martin is CEO of Acme Corporation.', MARCH, SEPTEMBER],
    ]);
    expect(factsSaying(memory, 'Bob Stone')[0]).toMatchObject({ validFrom: SEPTEMBER, validTo: null });
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
  });

  it('survive a snapshot, and a version 1 snapshot still restores with open validity', () => {
    const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    say(memory, 'a', 'Alice Martin moved to Paris.', MARCH);
    say(memory, 'b', 'Alice Martin moved to Berlin.', JUNE);
    const snapshot = JSON.parse(JSON.stringify(snapshotGraph(memory.graph))) as GraphSnapshot;
    const restored = restoreMemoryGraph(snapshot, { factExtraction: true });
    expect(factsSaying(restored, 'Paris')[0]).toMatchObject({ validFrom: MARCH, validTo: JUNE });
    const v1 = {
      ...snapshot,
      version: 1,
      facts: snapshot.facts.map(({ validFrom: _from, validTo: _to, sourceId: _source, ...rest }) => rest),
      files: snapshot.files.map(({ relationTimes: _times, closedFacts: _closed, statements: _statements, ...rest }) => rest),
    } as GraphSnapshot;
    const old = restoreMemoryGraph(v1, { factExtraction: true });
    expect(factsSaying(old, 'Paris')[0]).toMatchObject({ validFrom: '', validTo: null, sourceId: 'a' });
    refreshValidity(old.graph);
    expect(graphInvariantViolations(old.graph)).toEqual([]);
  });
});

describe('statedDocumentDate', () => {
  it('reads a labelled date at the top of a document only', () => {
    expect(statedDocumentDate('Pricing\nLast updated: March 5, 2024\n...')).toBe('2024-03-05T00:00:00.000Z');
    expect(statedDocumentDate('Date: 2023-11-30\nMinutes')).toBe('2023-11-30T00:00:00.000Z');
    expect(statedDocumentDate('Published 1 February 2022')).toBe('2022-02-01T00:00:00.000Z');
    expect(statedDocumentDate('The war ended on 8 May 1945.')).toBeUndefined();
    expect(statedDocumentDate(`${'x'.repeat(500)} Date: 2023-11-30`)).toBeUndefined();
  });
});
