/** Entity resolution: aliases, acronyms, ambiguity, incremental merging, and the pairwise rules. */
import { describe, expect, it } from 'vitest';
import { addFile, type MemoryGraph } from '../../../functions/engine/graph/graph-build';
import { DEFAULT_MATCH_THRESHOLDS, matchReason, type MatchContext } from '../../../functions/engine/graph/entity-match';
import { formOf } from '../../../functions/engine/graph/calibrate';
import { graphInvariantViolations } from '../../../functions/engine/graph/graph-invariants';
import { CULTURE_FILES, TWO_CURIES } from './corpus';
import { buildGraph, entitiesNamed, entityNamed } from './helpers';

const NO_VECTORS: MatchContext = {
  thresholds: DEFAULT_MATCH_THRESHOLDS,
  organizationHeads: new Set(['university', 'corporation']),
  personTypes: new Set(['person']),
};

describe('entity resolution within a file', () => {
  const memory = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);

  it('merges a surname into the full name ("Marie Curie" / "Curie")', () => {
    const curie = entityNamed(memory, 'Marie Curie');
    expect(entityNamed(memory, 'Curie').id).toBe(curie.id);
    expect(curie.name).toBe('Marie Curie');
    expect(curie.type).toBe('person');
    expect([...curie.aliases.keys()].sort()).toEqual(['curie', 'marie curie']);
  });

  it('merges an acronym defined in parentheses ("International Business Machines (IBM)")', () => {
    const ibm = entityNamed(memory, 'International Business Machines');
    expect(entityNamed(memory, 'IBM').id).toBe(ibm.id);
    expect(ibm.support.get('f-ibm')).toBe(3); // the name, "(IBM)", and "IBM later built"
  });

  it('merges an acronym with initials the same file spells out ("World Health Organization" / "WHO")', () => {
    expect(entityNamed(memory, 'WHO').id).toBe(entityNamed(memory, 'World Health Organization').id);
  });

  it('strips titles and merges the surname ("President Barack Obama" / "Obama")', () => {
    const obama = entityNamed(memory, 'Barack Obama');
    expect(obama.type).toBe('person');
    expect(entityNamed(memory, 'Obama').id).toBe(obama.id);
    expect(entitiesNamed(memory, 'President Barack Obama')).toEqual([]);
  });

  it('keeps different things apart ("Nobel Prize in Physics" is not "Paris"; "Curie Museum" is not "Curie")', () => {
    expect(entityNamed(memory, 'Curie Museum').id).not.toBe(entityNamed(memory, 'Marie Curie').id);
    expect(new Set([...memory.graph.entities.values()].map((entity) => entity.key)).size).toBe(memory.graph.entities.size);
  });

  it('leaves an ambiguous surname alone when the file names two people who share it', () => {
    const two = buildGraph('culture', [TWO_CURIES]);
    const surname = entityNamed(two, 'Curie');
    expect(surname.id).not.toBe(entityNamed(two, 'Marie Curie').id);
    expect(surname.id).not.toBe(entityNamed(two, 'Pierre Curie').id);
  });
});

describe('incremental resolution', () => {
  it('merges a second file into the entities of the first', () => {
    const memory: MemoryGraph = buildGraph('culture', [CULTURE_FILES.curie, CULTURE_FILES.ibm]);
    const before = memory.graph.entities.size;
    const curie = entityNamed(memory, 'Marie Curie');
    const ibm = entityNamed(memory, 'International Business Machines');
    const summary = addFile(memory, CULTURE_FILES.later);
    expect(entityNamed(memory, 'Curie').id).toBe(curie.id);
    expect(curie.support.get('f-later')).toBe(1);
    expect(ibm.support.get('f-later')).toBe(1);
    expect(entityNamed(memory, 'Paris').support.size).toBe(2);
    expect(summary.resolvedBy.exact).toBeGreaterThanOrEqual(3);
    expect(memory.graph.entities.size).toBe(before + summary.newEntities);
    expect(graphInvariantViolations(memory.graph)).toEqual([]);
  });

  it('lets a later full name join a node first known by its surname', () => {
    const memory = buildGraph('culture', [
      { fileId: 'a', chunks: [{ id: 'a#0', text: 'Curie was born in Warsaw.' }] },
      { fileId: 'b', chunks: [{ id: 'b#0', text: 'Physicist Marie Curie won a prize.' }] },
    ]);
    const curie = entityNamed(memory, 'Curie');
    expect(entityNamed(memory, 'Marie Curie').id).toBe(curie.id);
    expect(curie.name).toBe('Marie Curie');
    expect([...curie.support.keys()].sort()).toEqual(['a', 'b']);
  });
});

describe('matchReason', () => {
  const reason = (a: string, b: string, type?: string) => matchReason(formOf(a, 'name', type), formOf(b, 'name', type), NO_VECTORS);

  it('explains each merge rule', () => {
    expect(reason('The Beatles', 'Beatles')).toBe('exact');
    expect(reason('International Business Machines', 'IBM')).toBe('acronym');
    expect(reason('Barack Obama', 'Obama', 'person')).toBe('abbreviation');
    expect(reason('Harvard University', 'Harvard')).toBe('abbreviation');
    expect(reason('Tchaikovsky', 'Tschaikovsky')).toBe('fuzzy');
    expect(reason('Gamal Abdel Nasser', 'Gamal Abdul Nasser')).toBe('fuzzy');
  });

  it('refuses the hard negatives', () => {
    expect(reason('Barack Obama', 'Michelle Obama', 'person')).toBeUndefined();
    expect(reason('Apollo 11', 'Apollo 13')).toBeUndefined();
    expect(reason('Henry VIII', 'Henry VII', 'person')).toBeUndefined();
    expect(reason('John Smith', 'Joan Smith', 'person')).toBeUndefined();
    expect(reason('North Korea', 'Korea')).toBeUndefined();
    expect(reason('University of Copenhagen', 'Copenhagen')).toBeUndefined();
    expect(reason('Lancashire League', 'Lancashire')).toBeUndefined();
    expect(reason('Chile', 'Chilean')).toBeUndefined();
    expect(reason('Irondequoit Bay', 'Irondequoit Bay Bridge')).toBeUndefined();
  });
});
