/**
 * Sample chunks and the answers a well-behaved model gives for them, in the extraction answer format
 * (`functions/adapters/graph-extraction/answer-schema.ts`), for the `culture` ontology.
 */
import {
  createMemoryGraph,
  extractFile,
  type FileExtraction,
  type GraphFileInput,
  graphInvariantViolations,
  mergeFile,
} from '../../../../functions/engine/graph';
import { ontologySchema, type OntologyName } from '../../../../functions/engine/graph/ontology';
import type { ExtractionContext } from '../../../../functions/adapters/graph-extraction';

export const CURIE_FILE: GraphFileInput = {
  fileId: 'file-curie',
  chunks: [
    { id: 'curie-0', text: 'Marie Curie won the Nobel Prize in Physics in 1903. Curie was born in Warsaw.' },
    { id: 'curie-1', text: 'The University of Paris appointed Marie Curie as a professor in 1906.' },
  ],
};

export const CULTURE_CONTEXT: ExtractionContext = { schema: ontologySchema('culture'), factExtraction: true };

type Entity = { text: string; type: string };
type Relation = { subject: string; predicate: string; object: string; sentence: string; kind: string };

const ANSWERS: Record<number, { entities: Entity[]; relations: Relation[] }> = {
  0: {
    entities: [
      { text: 'Marie Curie', type: 'person' },
      { text: 'Nobel Prize in Physics', type: 'award' },
      { text: '1903', type: 'date' },
      { text: 'Curie', type: 'person' },
      { text: 'Warsaw', type: 'place' },
    ],
    relations: [
      {
        subject: 'Marie Curie',
        predicate: 'won',
        object: 'Nobel Prize in Physics',
        sentence: 'Marie Curie won the Nobel Prize in Physics in 1903.',
        kind: 'fact',
      },
      { subject: 'Curie', predicate: 'was born in', object: 'Warsaw', sentence: 'Curie was born in Warsaw.', kind: 'fact' },
    ],
  },
  1: {
    entities: [
      { text: 'University of Paris', type: 'organization' },
      { text: 'Marie Curie', type: 'person' },
      { text: '1906', type: 'date' },
    ],
    relations: [
      {
        subject: 'University of Paris',
        predicate: 'Appointed ',
        object: 'Marie Curie',
        sentence: 'The University of Paris appointed Marie Curie as a professor in 1906.',
        kind: 'fact',
      },
    ],
  },
};

/** The chunk numbers a request's user text asks about ("Chunk 3:"). */
export function chunksAsked(userText: string): number[] {
  return [...userText.matchAll(/^Chunk (\d+):$/gm)].map((match) => Number(match[1]));
}

/** A good answer for the chunks asked. */
export function curieAnswer(chunks: readonly number[]): { chunks: Array<{ chunk: number; entities: Entity[]; relations: Relation[] }> } {
  return { chunks: chunks.map((chunk) => ({ chunk, ...(ANSWERS[chunk] ?? { entities: [], relations: [] }) })) };
}

/** What the offline extractor makes of a file. */
export function offlineExtraction(file: GraphFileInput, context: ExtractionContext = CULTURE_CONTEXT): FileExtraction {
  return extractFile(file, context);
}

/** Checks an extraction's mentions point at their surfaces, then merges it into a fresh graph. */
export function mergeIntoFreshGraph(extraction: FileExtraction, file: GraphFileInput = CURIE_FILE, ontology: OntologyName = 'culture') {
  for (const chunk of extraction.chunks) {
    const text = file.chunks[chunk.index]?.text ?? '';
    if (file.chunks[chunk.index]?.id !== chunk.chunkId) throw new Error(`chunk ${chunk.chunkId} has index ${chunk.index}`);
    for (const mention of chunk.mentions) {
      if (text.slice(mention.start, mention.end) !== mention.surface) throw new Error(`mention ${mention.surface} not at ${mention.start}`);
    }
    for (const relation of chunk.relations) {
      if (!chunk.mentions[relation.subject] || !chunk.mentions[relation.object]) throw new Error('relation end out of range');
    }
  }
  const memory = createMemoryGraph({ ontology, factExtraction: true });
  const summary = mergeFile(memory, extraction);
  return { memory, summary, violations: graphInvariantViolations(memory.graph) };
}

/** The entity of a graph with this display name. */
export function entityNamed(memory: ReturnType<typeof createMemoryGraph>, name: string) {
  return [...memory.graph.entities.values()].find((entity) => entity.name === name);
}
