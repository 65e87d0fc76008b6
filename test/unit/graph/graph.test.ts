/** Relations, facts, and the graph's bookkeeping: cascading file removal, replacement, invariants, snapshots. */
import { describe, expect, it } from 'vitest';
import { addFile, removeFile } from '../../../functions/engine/graph/graph-build';
import { graphInvariantViolations } from '../../../functions/engine/graph/graph-invariants';
import { restoreMemoryGraph, snapshotGraph, type GraphSnapshot } from '../../../functions/engine/graph/graph-snapshot';
import { CULTURE_FILES, ESSAY_FILE, SUPPORT_FILE } from './corpus';
import { buildGraph, entitiesNamed, entityNamed, svoTriples } from './helpers';

describe('relations and facts', () => {
  const memory = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);

  it('extracts subject-predicate-object relations from the parsed sentences', () => {
    expect(svoTriples(memory)).toEqual(
      expect.arrayContaining([
        'Marie Curie | born in | Warsaw',
        'Marie Curie | born in | 1867',
        'Marie Curie | moved to | Paris',
        'Marie Curie | taught at | University of Paris',
        'Marie Curie | won | Nobel Prize in Physics',
        'International Business Machines | built | Watson',
        'Barack Obama | visited | World Health Organization',
        'Barack Obama | praised | World Health Organization',
      ]),
    );
  });

  it('keeps each relation as a fact with its source sentence, chunk and file', () => {
    const curie = entityNamed(memory, 'Marie Curie');
    const warsaw = entityNamed(memory, 'Warsaw');
    const fact = [...memory.graph.facts.values()].find((candidate) => candidate.subjectId === curie.id && candidate.objectId === warsaw.id);
    expect(fact).toMatchObject({
      kind: 'fact',
      predicate: 'born in',
      text: 'Physicist Marie Curie was born in Warsaw in 1867.',
      chunkId: 'f-curie#0',
      fileId: 'f-curie',
    });
    expect(memory.graph.relations.get(fact?.relationId ?? '')?.kind).toBe('svo');
  });

  it('links entities of one sentence by co-occurrence, and records mentions per chunk', () => {
    const obama = entityNamed(memory, 'Barack Obama');
    const geneva = entityNamed(memory, 'Geneva');
    const linked = [...memory.graph.relations.values()].some(
      (relation) =>
        relation.kind === 'cooccurrence' && [relation.subjectId, relation.objectId].sort().join() === [obama.id, geneva.id].sort().join(),
    );
    expect(linked).toBe(true);
    const mentions = memory.graph.files.get('f-ibm')?.mentions.filter((mention) => mention.entityId === obama.id) ?? [];
    expect(mentions.map((mention) => [mention.chunkId, mention.surface])).toEqual([
      ['f-ibm#1', 'Barack Obama'],
      ['f-ibm#1', 'Obama'],
    ]);
  });

  it('makes no facts when fact extraction is off', () => {
    const plain = buildGraph('culture', [CULTURE_FILES.curie], false);
    expect(plain.graph.facts.size).toBe(0);
    expect(svoTriples(plain)).toContain('Marie Curie | born in | Warsaw');
  });

  it('gives facts ontology kinds (claims in essays) and finds support-ticket relations', () => {
    const essays = buildGraph('essays', [ESSAY_FILE]);
    const kinds = [...essays.graph.facts.values()].map((fact) => `${fact.kind}: ${fact.predicate}`);
    expect(kinds).toContain('claim: argues that');
    const support = buildGraph('support_requests', [SUPPORT_FILE]);
    expect(svoTriples(support)).toContain('Globex Corp | reported | ERR_SYNC_TIMEOUT');
  });
});

describe('removing files', () => {
  it('cascades: chunks, mentions, facts, and entities and relations no other file supports go', () => {
    const memory = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm, CULTURE_FILES.later]);
    const curie = entityNamed(memory, 'Marie Curie');
    const summary = removeFile(memory, 'f-curie');
    expect(summary).toMatchObject({ fileId: 'f-curie', chunks: 2 });
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
    expect(entitiesNamed(memory, 'Warsaw')).toEqual([]);
    expect(entitiesNamed(memory, 'University of Paris')).toEqual([]);
    expect(memory.graph.entities.get(curie.id)?.support).toEqual(new Map([['f-later', 1]]));
    expect(memory.graph.entities.get(curie.id)?.name).toBe('Curie');
    expect([...memory.graph.chunks.keys()].some((id) => id.startsWith('f-curie'))).toBe(false);
    expect([...memory.graph.facts.values()].some((fact) => fact.fileId === 'f-curie')).toBe(false);
    expect(svoTriples(memory).some((triple) => triple.includes('Warsaw'))).toBe(false);
  });

  it('leaves an empty graph after removing every file, and a new file resolves against what is left', () => {
    const memory = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);
    removeFile(memory, 'f-ibm');
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
    expect(entitiesNamed(memory, 'IBM')).toEqual([]);
    addFile(memory, CULTURE_FILES.later);
    expect(entityNamed(memory, 'Curie').id).toBe(entityNamed(memory, 'Marie Curie').id);
    removeFile(memory, 'f-curie');
    removeFile(memory, 'f-later');
    const { entities, relations, facts, chunks, files } = memory.graph;
    expect([entities.size, relations.size, facts.size, chunks.size, files.size]).toEqual([0, 0, 0, 0, 0]);
    expect(removeFile(memory, 'f-unknown')).toMatchObject({ entities: 0, relations: 0, facts: 0 });
  });

  it('replaces a file added again under the same id', () => {
    const memory = buildGraph('culture', [CULTURE_FILES.curie]);
    const counts = [memory.graph.entities.size, memory.graph.relations.size, memory.graph.facts.size];
    addFile(memory, CULTURE_FILES.curie);
    expect([memory.graph.entities.size, memory.graph.relations.size, memory.graph.facts.size]).toEqual(counts);
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
  });
});

describe('snapshots', () => {
  it('restores a graph from JSON that takes more files exactly like the original', () => {
    const original = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);
    const json = JSON.stringify(snapshotGraph(original.graph));
    const restored = restoreMemoryGraph(JSON.parse(json) as GraphSnapshot, { factExtraction: true });
    expect(graphInvariantViolations(restored.graph)).toEqual([]);
    addFile(original, CULTURE_FILES.later);
    addFile(restored, CULTURE_FILES.later);
    removeFile(original, 'f-curie');
    removeFile(restored, 'f-curie');
    expect(snapshotGraph(restored.graph)).toEqual(snapshotGraph(original.graph));
    expect(graphInvariantViolations(restored.graph)).toEqual([]);
  });
});
