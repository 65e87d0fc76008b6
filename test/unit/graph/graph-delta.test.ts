/**
 * A graph memory's graph as a base plus deltas (docs/segments.md, "The graph of graph memories"): after
 * any sequence of session syncs, file adds, replaces and removals, the graph a warm worker keeps and the
 * base with every build's delta applied equal, record for record and in order, the graph the worker built
 * before deltas (restoring the whole stored state at every build), and so do the retrieval segments.
 */
import { describe, expect, it } from 'vitest';
import type { StoredChunk } from '../../../functions/core/stored-index/chunks';
import { buildMemoryGraph, type GraphChanges, OFFLINE_GRAPH_EXTRACTOR } from '../../../functions/core/ingest/memory-graph';
import { applyGraphDelta, type GraphDelta } from '../../../functions/engine/graph/graph-delta-format';
import { type GraphSnapshot, snapshotGraph } from '../../../functions/engine/graph/graph-snapshot';
import type { MemoryGraph } from '../../../functions/engine/graph/graph-build';
import { buildGraphSegment, type GraphSegment } from '../../../functions/engine/graph/graph-segment';
import { deserializeGraphSegment, serializeGraphSegment } from '../../../functions/engine/graph/graph-segment-format';
import { applySegmentDeltas, type GraphSegmentDelta } from '../../../functions/engine/graph/graph-segment-delta';
import { type SegmentSource, segmentOfSource, sourceOfSegment } from '../../../functions/engine/graph/graph-segment-source';
import { datedFacts, profileOf } from '../../../functions/engine/graph/dated-facts';
import { matchEntitiesByName } from '../../../functions/engine/graph/entity-lookup';
import { linkQueryToEntities, personalizedPageRank } from '../../../functions/engine/graph/graph-segment';
import type { SourceId } from '../../../functions/core/source-ref';
import { pickWith, seeded } from '../../support/seeded-random';

const PEOPLE = ['Alice Martin', 'Bruno Costa', 'Chen Wei', 'Dana Scully', 'Emil Novak'];
const PLACES = ['Paris', 'Berlin', 'Lisbon', 'Oslo', 'Denver'];
const COMPANIES = ['Globex', 'Initech', 'Acme Corporation', 'Hooli'];
const MEMORY = { id: 'm', ontology: 'culture' as const, factExtraction: true };
const OPTIONS = { wordVectors: undefined, extractor: OFFLINE_GRAPH_EXTRACTOR };

function sentence(random: () => number): string {
  const pick = pickWith(random);
  const person = pick(PEOPLE);
  const forms = [
    () => `${person} moved to ${pick(PLACES)}.`,
    () => `${person} works at ${pick(COMPANIES)}.`,
    () => `${person} is CEO of ${pick(COMPANIES)}.`,
    () => `${person} visited ${pick(PLACES)} with ${pick(PEOPLE)}.`,
    () => `I live in ${pick(PLACES)} and I work at ${pick(COMPANIES)}.`,
    () => `I moved to ${pick(PLACES)}. I love ${pick(['tea', 'jazz', 'chess'])}.`,
  ];
  return pick(forms)();
}

const time = (day: number) => new Date(Date.UTC(2024, 0, 1 + day)).toISOString();

/** The live content: each source's chunks (a session's messages grow; a file's text is replaced). */
type Live = Map<SourceId, StoredChunk[]>;

/** One random change of the live content; answers the build's inputs (what is added, what is kept). */
function change(live: Live, random: () => number, step: number): Omit<GraphChanges, 'previous' | 'cached'> {
  const roll = random();
  if (roll < 0.15 && live.size > 1) {
    const gone = [...live.keys()][Math.floor(random() * live.size)] as SourceId;
    live.delete(gone);
    return { added: new Map(), kept: new Set(live.keys()) };
  }
  if (roll < 0.6) {
    const sessionId = `s${Math.floor(random() * 4)}`;
    const fileId = `session:${sessionId}` as SourceId;
    const messages = live.get(fileId) ?? [];
    const id = `msg${step}`;
    const message = { id, sessionId, role: 'user', customerUserId: `u${sessionId}`, createdAt: time(step) };
    messages.push({ id: `msg:${id}`, fileId, text: sentence(random), start: 0, end: 1, message });
    live.set(fileId, messages);
    return { added: new Map([[fileId, [...messages]]]), kept: new Set(live.keys()) };
  }
  const fileId = `f${Math.floor(random() * 5)}` as SourceId;
  const chunks = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) => ({
    id: `${fileId}#${step}.${index}`,
    fileId,
    text: `${sentence(random)} ${sentence(random)}`,
    start: 0,
    end: 1,
  }));
  live.set(fileId, chunks);
  const fileTimes = new Map([[fileId, { createdAt: time(0), updatedAt: time(step) }]]);
  return { added: new Map([[fileId, chunks]]), kept: new Set(live.keys()), fileTimes };
}

const roundTrip = (snapshot: GraphSnapshot): GraphSnapshot => JSON.parse(JSON.stringify(snapshot)) as GraphSnapshot;
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A base segment as a query container reads it: written whole, read back, its source taken from its keys. */
function baseSource(graph: MemoryGraph): SegmentSource {
  const source = sourceOfSegment(deserializeGraphSegment(serializeGraphSegment(buildGraphSegment(graph.graph))));
  if (!source) throw new Error('a base segment carries its keys');
  return source;
}

/** What retrieval answers from a segment: the walk, the query's entities, dated facts, a profile, a name lookup. */
function answers(segment: GraphSegment): unknown {
  const seeds = linkQueryToEntities(segment, 'Where does Alice Martin live and work? Paris Globex');
  return {
    seeds,
    walk: personalizedPageRank(segment, new Map(seeds.map((link) => [link.entity, link.weight]))),
    facts: datedFacts(segment),
    profile: profileOf(segment, 'us0', '2030-01-01T00:00:00.000Z'),
    names: matchEntitiesByName(segment, 'Alice', 5),
  };
}

/**
 * Byte-for-byte equality of two serialized segments: their lengths and the first offset where they differ
 * (none). vitest's `toEqual` walks a Uint8Array element by element: four of them a build were most of this
 * file's time.
 */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  const firstDifference = Buffer.from(actual).equals(Buffer.from(expected))
    ? -1
    : actual.findIndex((byte, offset) => byte !== expected[offset]);
  expect({ length: actual.length, firstDifference }).toEqual({ length: expected.length, firstDifference: -1 });
}

describe('graph deltas', () => {
  it.each([3, 11, 29])('base plus deltas and the kept graph equal the graph restored at every build (seed %i)', async (seed) => {
    const random = seeded(seed);
    const live: Live = new Map();
    let warm: MemoryGraph | undefined;
    let composed: GraphSnapshot | undefined;
    let composedSource: SegmentSource | undefined;
    let chainBase: SegmentSource | undefined;
    let pending: GraphSegmentDelta[] = [];
    let whole: GraphSnapshot | undefined;
    let deltas = 0;
    let closed = 0;
    for (let step = 0; step < 40; step++) {
      const inputs = change(live, random, step);
      const kept = await buildMemoryGraph(MEMORY, { previous: undefined, ...(warm ? { cached: warm } : {}), ...inputs }, OPTIONS);
      const restored = await buildMemoryGraph(MEMORY, { previous: composed && roundTrip(composed), ...inputs }, OPTIONS);
      const before = await buildMemoryGraph(MEMORY, { previous: whole && roundTrip(whole), ...inputs }, OPTIONS);
      warm = kept.graph;
      whole = snapshotGraph(before.graph.graph);
      // a merge now and then: the composed graph is written whole as a new base
      const delta: GraphDelta | undefined = kept.delta && (roundTrip(kept.delta as unknown as GraphSnapshot) as unknown as GraphDelta);
      const segmentDelta: GraphSegmentDelta | undefined = kept.segmentDelta && stored(kept.segmentDelta);
      const applies = composed !== undefined && delta !== undefined && random() > 0.2;
      composed = composed && delta && applies ? applyGraphDelta(composed, delta) : snapshotGraph(warm.graph);
      // a warm container applies each delta to the version before; a cold one the chain's deltas to its base
      composedSource = composedSource && segmentDelta && applies ? applySegmentDeltas(composedSource, [segmentDelta]) : baseSource(warm);
      if (chainBase && segmentDelta && applies) pending.push(segmentDelta);
      else [chainBase, pending] = [baseSource(warm), []];
      if (delta) deltas++;
      closed += whole.facts.filter((fact) => fact.validTo !== null).length;
      expect(snapshotGraph(warm.graph)).toEqual(whole);
      expect(composed).toEqual(whole);
      expect(snapshotGraph(restored.graph.graph)).toEqual(whole);
      const wholeSegment = serializeGraphSegment(buildGraphSegment(before.graph.graph));
      const composedSegment = segmentOfSource(composedSource);
      expectSameBytes(serializeGraphSegment(composedSegment), wholeSegment);
      expectSameBytes(serializeGraphSegment(segmentOfSource(applySegmentDeltas(chainBase, pending))), wholeSegment);
      expectSameBytes(serializeGraphSegment(buildGraphSegment(warm.graph)), wholeSegment);
      expectSameBytes(serializeGraphSegment(buildGraphSegment(restored.graph.graph)), wholeSegment);
      expect(answers(composedSegment)).toEqual(answers(deserializeGraphSegment(wholeSegment)));
    }
    expect(deltas).toBeGreaterThan(30);
    expect(closed).toBeGreaterThan(0);
    expect(whole?.files.some((file) => (file.statementRows?.length ?? 0) > 0)).toBe(true);
  });

  it('one more session costs a delta whose size does not grow with the graph', async () => {
    const sizes: number[] = [];
    // few names: every session mentions the same hub entities, whose support grows with the graph
    for (const sessions of [10, 150]) {
      let graph: MemoryGraph | undefined;
      const random = seeded(5);
      for (let s = 0; s <= sessions; s++) {
        const fileId = `session:s${s}` as SourceId;
        const chunks = Array.from({ length: 4 }, (_, m) => {
          const message = { id: `${s}-${m}`, sessionId: `s${s}`, role: 'user', customerUserId: `u${s}`, createdAt: time(s) };
          return {
            id: `msg:${s}-${m}`,
            fileId,
            text: s === sessions ? `Alice Martin moved to Paris. I love tea.` : sentence(random),
            start: 0,
            end: 1,
            message,
          };
        });
        const kept = new Set(Array.from({ length: s + 1 }, (_, i) => `session:s${i}`));
        const built = await buildMemoryGraph(
          MEMORY,
          { previous: undefined, ...(graph ? { cached: graph } : {}), added: new Map([[fileId, chunks]]), kept },
          OPTIONS,
        );
        graph = built.graph;
        if (s === sessions)
          sizes.push(Buffer.byteLength(JSON.stringify(built.delta)), Buffer.byteLength(JSON.stringify(snapshotGraph(graph.graph))));
      }
    }
    const [smallDelta, smallWhole, largeDelta, largeWhole] = sizes as [number, number, number, number];
    expect(largeWhole).toBeGreaterThan(smallWhole * 8);
    expect(largeDelta).toBeLessThan(smallDelta * 1.5);
    expect(largeDelta).toBeLessThan(largeWhole / 20);
  });
});
