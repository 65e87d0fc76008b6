/** Finding a graph segment's entities by name, and reading their neighbours, chunks and facts. */
import { describe, expect, it } from 'vitest';
import { factsOf, matchEntitiesByName, mentioningChunks, neighboursOf } from '../../../functions/engine/graph/entity-lookup';
import type { GraphSegment } from '../../../functions/engine/graph/graph-segment';

/** Entities 0-4; chunks c0-c3; entity 0 (IBM) is mentioned most and linked to 1 (strongly) and 2. */
const segment: GraphSegment = {
  entityIds: ['e-ibm', 'e-san-jose', 'e-drive', 'e-ibm-research', 'e-machines'],
  names: ['International Business Machines', 'San Jose', 'hard disk drive', 'IBM Research', 'machines'],
  types: ['organization', 'place', 'concept', 'organization', 'concept'],
  aliases: [['international business machines', 'ibm'], ['san jose'], ['hard disk drive', 'disk drive'], ['ibm research'], ['machines']],
  chunkIds: ['c0', 'c1', 'c2', 'c3'],
  fileIds: ['f1', 'f2'],
  chunkFiles: Uint32Array.from([0, 0, 1, 1]),
  entityChunkOffsets: Uint32Array.from([0, 3, 4, 6, 7, 8]),
  entityChunks: Uint32Array.from([0, 1, 2, 0, 0, 1, 3, 2]),
  entityChunkWeights: Float32Array.from([1, 3, 2, 1, 1, 1, 1, 1]),
  edgeOffsets: Uint32Array.from([0, 2, 3, 4, 4, 4]),
  edgeTargets: Uint32Array.from([1, 2, 0, 0]),
  edgeWeights: Float32Array.from([0.5, 2, 0.5, 2]),
  facts: {
    texts: ['IBM built the drive in San Jose.', 'The drive stored five megabytes.'],
    predicates: ['built', 'stored'],
    kinds: ['fact', 'fact'],
    subjects: Uint32Array.from([0, 2]),
    objects: Uint32Array.from([2, 4]),
    chunks: Uint32Array.from([0, 1]),
  },
};

const names = (name: string, limit = 10) => matchEntitiesByName(segment, name, limit).map((m) => segment.names[m.entity]);

describe('entity look-up by name', () => {
  it('puts an exact alias first, then aliases holding every word, closest in length first', () => {
    expect(names('IBM')).toEqual(['International Business Machines', 'IBM Research']);
    expect(names('ibm', 1)).toEqual(['International Business Machines']);
    expect(matchEntitiesByName(segment, 'IBM', 10)[0]?.score).toBe(1);
  });

  it('takes plurals, partial names and near spellings', () => {
    expect(names('hard disk drives')[0]).toBe('hard disk drive');
    expect(names('Business Machines')[0]).toBe('International Business Machines');
    expect(names('Internatonal Busines Machines')[0]).toBe('International Business Machines');
    expect(names('machine')[0]).toBe('machines');
  });

  it('finds nothing for unrelated or empty names', () => {
    expect(names('Kilimanjaro')).toEqual([]);
    expect(names('  ...  ')).toEqual([]);
  });
});

describe('what the segment knows about an entity', () => {
  it('lists neighbours strongest first, chunks by mentions, and the facts it is part of', () => {
    expect(neighboursOf(segment, 0, 10)).toEqual([2, 1]);
    expect(neighboursOf(segment, 0, 1)).toEqual([2]);
    expect(mentioningChunks(segment, 0)).toEqual(['c1', 'c2', 'c0']);
    expect(factsOf(segment, 2)).toEqual([
      { text: 'IBM built the drive in San Jose.', chunkId: 'c0' },
      { text: 'The drive stored five megabytes.', chunkId: 'c1' },
    ]);
    expect(factsOf(segment, 1)).toEqual([]);
  });
});
