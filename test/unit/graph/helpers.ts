/** Helpers for the graph tests: build a memory graph from files and look entities up by name. */
import { addFile, createMemoryGraph, type GraphFileInput, type MemoryGraph } from '../../../functions/engine/graph/graph-build';
import type { GraphEntity } from '../../../functions/engine/graph/graph-model';
import type { OntologyName } from '../../../functions/engine/graph/ontology';

export function buildGraph(ontology: OntologyName, files: readonly GraphFileInput[], factExtraction = true): MemoryGraph {
  const memory = createMemoryGraph({ ontology, factExtraction });
  for (const file of files) addFile(memory, file);
  return memory;
}

/** The entity with an alias written `surface` (throws when none or several). */
export function entityNamed(memory: MemoryGraph, surface: string): GraphEntity {
  const found = [...memory.graph.entities.values()].filter((entity) =>
    [...entity.aliases.values()].some((alias) => alias.surface === surface),
  );
  if (found.length !== 1) throw new Error(`expected one entity written "${surface}", found ${found.length}`);
  return found[0] as GraphEntity;
}

/** Entities having an alias written `surface`. */
export function entitiesNamed(memory: MemoryGraph, surface: string): GraphEntity[] {
  return [...memory.graph.entities.values()].filter((entity) => [...entity.aliases.values()].some((alias) => alias.surface === surface));
}

/** SVO relations as "subject | predicate | object" display strings. */
export function svoTriples(memory: MemoryGraph): string[] {
  const name = (id: string): string => memory.graph.entities.get(id)?.name ?? `?${id}`;
  return [...memory.graph.relations.values()]
    .filter((relation) => relation.kind === 'svo')
    .map((relation) => `${name(relation.subjectId)} | ${relation.predicate} | ${name(relation.objectId)}`);
}
