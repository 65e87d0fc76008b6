/** The retrieval segment: layout, binary round trip, query linking, personalized PageRank. */
import { describe, expect, it } from 'vitest';
import {
  buildGraphSegment,
  deserializeGraphSegment,
  linkQueryToEntities,
  personalizedPageRank,
  serializeGraphSegment,
  topChunks,
  type GraphSegment,
} from '../../../functions/engine/graph/graph-segment';
import { createMemoryGraph, extractFile, mergeFile } from '../../../functions/engine/graph/graph-build';
import { refreshValidity } from '../../../functions/engine/graph/validity';
import { CHAIN_FILES, CULTURE_FILES } from './corpus';
import { buildGraph } from './helpers';

function entityOrdinal(segment: GraphSegment, name: string): number {
  const ordinal = segment.names.indexOf(name);
  if (ordinal < 0) throw new Error(`no entity ${name}`);
  return ordinal;
}

describe('buildGraphSegment', () => {
  const memory = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);
  const segment = buildGraphSegment(memory.graph);

  it('lays out entities, aliases, chunks, mention and edge adjacency, and facts', () => {
    const curie = entityOrdinal(segment, 'Marie Curie');
    expect(segment.types[curie]).toBe('person');
    expect(segment.aliases[curie]).toEqual(['marie curie', 'curie']);
    expect(segment.chunkIds).toEqual(['f-curie#0', 'f-curie#1', 'f-ibm#0', 'f-ibm#1']);
    expect([...segment.chunkFiles]).toEqual([0, 0, 1, 1]);
    const chunks = segment.entityChunks.subarray(segment.entityChunkOffsets[curie], segment.entityChunkOffsets[curie + 1]);
    expect([...chunks]).toEqual([0, 1]);
    const warsaw = entityOrdinal(segment, 'Warsaw');
    const neighbours = [...segment.edgeTargets.subarray(segment.edgeOffsets[curie], segment.edgeOffsets[curie + 1])];
    expect(neighbours).toContain(warsaw);
    expect(segment.facts.texts.length).toBe(memory.graph.facts.size);
  });

  it('round-trips through bytes, and rejects foreign or truncated bytes', () => {
    const bytes = serializeGraphSegment(segment);
    const loaded = deserializeGraphSegment(bytes);
    expect(loaded.names).toEqual(segment.names);
    expect(loaded.aliases).toEqual(segment.aliases);
    expect([...loaded.edgeTargets]).toEqual([...segment.edgeTargets]);
    expect([...loaded.edgeWeights]).toEqual([...segment.edgeWeights]);
    expect([...loaded.entityChunkWeights]).toEqual([...segment.entityChunkWeights]);
    expect([...loaded.facts.chunks]).toEqual([...segment.facts.chunks]);
    expect(() => deserializeGraphSegment(bytes.subarray(0, bytes.length - 4))).toThrow(/graph segment/);
    expect(() => deserializeGraphSegment(new Uint8Array(64))).toThrow(/not a graph segment/);
  });

  it('links a query to entities by alias, acronym and surname', () => {
    const names = (query: string): string[] => linkQueryToEntities(segment, query).map((link) => segment.names[link.entity] ?? '');
    expect(names('Where was Curie born?')[0]).toBe('Marie Curie');
    expect(names('What did IBM build?')).toEqual(['International Business Machines']);
    expect(names('What did the WHO say?')).toEqual(['World Health Organization']);
    expect(names('who is it')).toEqual([]);
  });
});

describe('personalizedPageRank', () => {
  const memory = buildGraph('culture', [...CHAIN_FILES]);
  const segment = deserializeGraphSegment(serializeGraphSegment(buildGraphSegment(memory.graph)));

  it('ranks a two-hop chunk above an unrelated one', () => {
    const seeds = new Map(linkQueryToEntities(segment, 'Alphonse Rigaud').map((link) => [link.entity, link.weight]));
    expect([...seeds.keys()]).toEqual([entityOrdinal(segment, 'Alphonse Rigaud')]);
    const { chunkScores } = personalizedPageRank(segment, seeds, { damping: 0.5 });
    const [direct, twoHop, unrelated] = ['f-a#0', 'f-b#0', 'f-c#0'].map((id) => chunkScores[segment.chunkIds.indexOf(id)] ?? 0);
    expect(direct).toBeGreaterThan(twoHop ?? 0);
    expect(twoHop).toBeGreaterThan(unrelated ?? 0);
    expect(unrelated).toBe(0);
    expect(topChunks(segment, chunkScores, 2).map((hit) => hit.chunkId)).toEqual(['f-a#0', 'f-b#0']);
  });

  it('stays within the residual it leaves behind of the near-exact scores, best chunks in the same order', () => {
    const seeds = new Map([[entityOrdinal(segment, 'Alphonse Rigaud'), 1]]);
    const exact = personalizedPageRank(segment, seeds, { epsilon: 1e-14 });
    const coarse = personalizedPageRank(segment, seeds, { epsilon: 1e-3 });
    expect(coarse.pushes).toBeLessThan(exact.pushes);
    coarse.chunkScores.forEach((score, chunk) => {
      const reference = exact.chunkScores[chunk] ?? 0;
      expect(score).toBeLessThanOrEqual(reference + 1e-12);
      expect(reference - score).toBeLessThan(0.05);
    });
    const order = (scores: Float64Array) => topChunks(segment, scores, 2).map((hit) => hit.chunkId);
    expect(order(coarse.chunkScores)).toEqual(order(exact.chunkScores));
  });

  it('sums to one over all nodes (as epsilon goes to zero) and answers zeros without seeds', () => {
    const seeds = new Map([[entityOrdinal(segment, 'Charlemagne Tower'), 1]]);
    const { chunkScores, entityScores } = personalizedPageRank(segment, seeds, { epsilon: 1e-12 });
    const total = [...chunkScores, ...entityScores].reduce((sum, value) => sum + value, 0);
    expect(total).toBeCloseTo(1, 6);
    const none = personalizedPageRank(segment, new Map());
    expect([...none.chunkScores].every((score) => score === 0)).toBe(true);
  });
});

describe('speaker statements in a segment', () => {
  const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
  const said = [
    ['msg:m0', 'm0', 'u1', 'I live in Paris. I love tea and coffee.'],
    ['msg:m1', 'm1', 'u2', 'I prefer window seats.'],
    ['doc#0', 'doc-1', 'u1', 'We moved to Berlin.'],
  ] as const;
  const origins = new Map(
    said.map(([chunk, sourceId, speaker, text], i) => [chunk, { time: `2024-0${i + 1}-01T00:00:00.000Z`, sourceId, speaker, text }]),
  );
  const chunks = said.map(([id, , , text]) => ({ id, text }));
  mergeFile(memory, extractFile({ fileId: 'session:s', chunks }, { schema: memory.graph.schema, factExtraction: true }), {
    chunks: origins,
  });
  refreshValidity(memory.graph);
  const segment = buildGraphSegment(memory.graph);
  const records = (segment.statements ?? []).map(({ speaker, category, kind, text, chunkId, sourceId, validFrom, validTo }) => ({
    speaker,
    category,
    kind,
    text,
    chunkId,
    sourceId,
    validFrom,
    validTo,
  }));

  it('round-trip through the compact rows: speakers, sentences, chunks and sources as they were', () => {
    expect(segment.statements?.length).toBe(5);
    const bytes = serializeGraphSegment(segment);
    const metadata = JSON.parse(new TextDecoder().decode(bytes.subarray(40, 40 + new DataView(bytes.buffer).getUint32(8, true))));
    expect(metadata.statements).toBeUndefined();
    expect(metadata.speakers).toEqual(['u1', 'u2']);
    expect(metadata.statementKinds).toEqual([
      ['fact', 'residence'],
      ['preference', 'like'],
      ['preference', 'prefer'],
    ]);
    // "I love tea and coffee." gives two statements: the second row does not repeat the sentence
    expect(metadata.statementRows.filter((row: unknown[]) => row[2] === null)).toHaveLength(1);
    // a message's chunk names its source; the other chunk's row carries it
    expect(metadata.statementRows.map((row: unknown[]) => row[4])).toEqual([0, 0, 0, 0, 'doc-1']);
    expect(deserializeGraphSegment(bytes).statements).toEqual(records);
  });

  it('read from a segment written before the rows (statements as objects)', () => {
    const bytes = serializeGraphSegment(segment);
    const length = new DataView(bytes.buffer).getUint32(8, true);
    const {
      speakers: _speakers,
      statementKinds: _kinds,
      statementRows: _rows,
      ...metadata
    } = JSON.parse(new TextDecoder().decode(bytes.subarray(40, 40 + length)));
    const older = new TextEncoder().encode(JSON.stringify({ ...metadata, statements: records }));
    const tail = bytes.subarray(40 + length + ((4 - ((40 + length) % 4)) % 4));
    const padded = (older.length + 3) & ~3;
    const out = new Uint8Array(40 + padded + tail.length);
    out.set(bytes.subarray(0, 40));
    new DataView(out.buffer).setUint32(8, older.length, true);
    out.set(older, 40);
    out.set(tail, 40 + padded);
    expect(deserializeGraphSegment(out).statements).toEqual(records);
  });
});
