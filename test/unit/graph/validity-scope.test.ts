/** The incremental validity pass (only the groups a sync touched) gives what the whole pass gives. */
import { describe, expect, it } from 'vitest';
import { addFile, createMemoryGraph, type MemoryGraph } from '../../../functions/engine/graph/graph-build';
import type { ChunkOrigin } from '../../../functions/engine/graph/graph-build';
import { removeFile } from '../../../functions/engine/graph/graph-remove';
import { restoreMemoryGraph, snapshotGraph } from '../../../functions/engine/graph/graph-snapshot';
import { refreshValidity } from '../../../functions/engine/graph/validity';
import { addFileToScope, emptyValidityScope } from '../../../functions/engine/graph/validity-scope';
import { pickWith, seeded } from '../../support/seeded-random';

const PEOPLE = ['Alice Martin', 'Bruno Costa', 'Chen Wei', 'Dana Scully', 'Emil Novak'];
const PLACES = ['Paris', 'Berlin', 'Lisbon', 'Oslo', 'Denver'];
const COMPANIES = ['Globex', 'Initech', 'Acme Corporation', 'Hooli'];
const SPEAKERS = ['u1', 'u2', 'u3'];

/** Random sentences of single-valued (residence, employer, CEO, spouse) and multi-valued relations. */
function sentence(random: () => number): string {
  const pick = pickWith(random);
  const person = pick(PEOPLE);
  const forms = [
    () => `${person} moved to ${pick(PLACES)}.`,
    () => `${person} lives in ${pick(PLACES)}.`,
    () => `${person} works at ${pick(COMPANIES)}.`,
    () => `${person} joined ${pick(COMPANIES)}.`,
    () => `${person} is CEO of ${pick(COMPANIES)}.`,
    () => `${person} married ${pick(PEOPLE.filter((other) => other !== person))}.`,
    () => `${person} visited ${pick(PLACES)}.`,
    () => `I live in ${pick(PLACES)} and I work at ${pick(COMPANIES)}.`,
    () => `I moved to ${pick(PLACES)}. I love ${pick(['tea', 'jazz', 'chess'])}.`,
  ];
  return pick(forms)();
}

const time = (day: number) => new Date(Date.UTC(2024, 0, 1 + day)).toISOString();

/** One sync: a file (a session or a document) added, added again, replaced, or removed. */
function sync(memory: MemoryGraph, random: () => number, step: number): ReturnType<typeof emptyValidityScope> {
  const scope = emptyValidityScope();
  const fileId = `f${Math.floor(random() * 6)}`;
  const earlier = memory.graph.files.get(fileId);
  if (earlier) addFileToScope(scope, memory.graph, earlier);
  if (earlier && random() < 0.2) {
    removeFile(memory, fileId);
    return scope;
  }
  const chunks = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) => ({
    id: `${fileId}#${step}.${index}`,
    text: sentence(random),
  }));
  const speaker = SPEAKERS[Math.floor(random() * SPEAKERS.length)] as string;
  const origins = new Map<string, ChunkOrigin>(
    chunks.map((chunk) => [chunk.id, { time: time(Math.floor(random() * 60)), sourceId: chunk.id, speaker, text: chunk.text }]),
  );
  const replacedAt = earlier && random() < 0.5 ? { replacedAt: time(30 + Math.floor(random() * 60)) } : {};
  addFile(memory, { fileId, chunks }, { chunks: origins, ...replacedAt });
  const merged = memory.graph.files.get(fileId);
  if (merged) addFileToScope(scope, memory.graph, merged);
  return scope;
}

describe('incremental validity', () => {
  it.each([1, 7, 42])('matches the whole pass after every sync of a random sequence (seed %i)', (seed) => {
    const random = seeded(seed);
    let memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    let superseded = 0;
    for (let step = 0; step < 60; step++) {
      const scope = sync(memory, random, step);
      refreshValidity(memory.graph, scope);
      const incremental = snapshotGraph(memory.graph);
      const whole = restoreMemoryGraph(incremental, { factExtraction: true });
      refreshValidity(whole.graph);
      expect(incremental).toEqual(snapshotGraph(whole.graph));
      superseded += incremental.facts.filter((fact) => fact.validTo !== null).length;
      // the next sync starts from the stored state, as the worker's does
      memory = restoreMemoryGraph(incremental, { factExtraction: true });
    }
    expect(superseded).toBeGreaterThan(0);
  });
});
