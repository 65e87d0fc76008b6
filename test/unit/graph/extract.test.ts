/** Entity extraction and typing per ontology, on single sentences and the small corpus. */
import { describe, expect, it } from 'vitest';
import { extractMentions } from '../../../functions/engine/graph/extract-entities';
import { parseText } from '../../../functions/engine/graph/nlp';
import { normalizeKey, singularKey } from '../../../functions/engine/graph/normalize';
import { ontologySchema, type OntologyName } from '../../../functions/engine/graph/ontology';

function mentions(text: string, ontology: OntologyName): Array<[string, string, string]> {
  return extractMentions(parseText(text), ontologySchema(ontology)).map((mention) => [mention.surface, mention.type, mention.key]);
}

describe('normalizeKey', () => {
  it('folds case, diacritics, possessives, punctuation, articles and dotted initials', () => {
    expect(normalizeKey('The Beatles')).toBe('beatles');
    expect(normalizeKey("Tchaikovsky's")).toBe('tchaikovsky');
    expect(normalizeKey('Beyoncé Knowles')).toBe('beyonce knowles');
    expect(normalizeKey('Jean-Paul Sartre')).toBe('jean paul sartre');
    expect(normalizeKey('U.S.')).toBe('us');
    expect(normalizeKey('St. Petersburg')).toBe('saint petersburg');
    expect(normalizeKey('version 2.1')).toBe('version 2.1');
    expect(singularKey('memory leaks')).toBe('memory leak');
    expect(singularKey('mathematical physics')).toBe('mathematical physics');
  });
});

describe('extractMentions (culture)', () => {
  it('finds names, dates and noun phrases with their types', () => {
    const found = mentions('Physicist Marie Curie was born in Warsaw in 1867 and taught at the University of Paris.', 'culture');
    expect(found).toEqual(
      expect.arrayContaining([
        ['Marie Curie', 'person', 'marie curie'],
        ['Warsaw', 'place', 'warsaw'],
        ['1867', 'date', '1867'],
        ['University of Paris', 'organization', 'university of paris'],
      ]),
    );
    expect(found.map(([surface]) => surface)).not.toContain('Physicist Marie Curie');
  });

  it('types works, events, awards and traditions, and keeps an acronym defined in parentheses', () => {
    const text =
      'The singer Madonna released the album Thriller. The Battle of Hastings and Buddhism are old. Curie won the Nobel Prize in Physics. The World Health Organization (WHO) met.';
    const parsed = parseText(text);
    const found = extractMentions(parsed, ontologySchema('culture'));
    const typeOf = (surface: string): string | undefined => found.find((mention) => mention.surface === surface)?.type;
    expect(typeOf('Madonna')).toBe('person');
    expect(typeOf('Thriller')).toBe('work');
    expect(typeOf('Battle of Hastings')).toBe('event');
    expect(typeOf('Buddhism')).toBe('tradition');
    expect(typeOf('Nobel Prize in Physics')).toBe('award');
    expect(found.find((mention) => mention.surface === 'World Health Organization')?.acronym).toBe('who');
    expect(typeOf('WHO')).toBeDefined();
  });

  it('gives offsets into the text and sentence indexes', () => {
    const text = 'Alpha rose. Then Marie Curie left Warsaw.';
    const found = extractMentions(parseText(text), ontologySchema('culture'));
    const curie = found.find((mention) => mention.surface === 'Marie Curie');
    expect(curie && text.slice(curie.start, curie.end)).toBe('Marie Curie');
    expect(curie?.sentence).toBe(1);
  });

  it('joins words wink splits at non-ASCII letters', () => {
    const found = mentions('Gmina Bełchatów lies in Łódź Voivodeship.', 'culture').map(([surface]) => surface);
    expect(found).toContain('Gmina Bełchatów');
    expect(found).toContain('Łódź Voivodeship');
  });
});

describe('extractMentions (support_requests and essays)', () => {
  it('finds customers, error codes, versions, products and features', () => {
    const found = mentions(
      'Customer Globex Corp reported ERR_SYNC_TIMEOUT in the Export dashboard after upgrading to version 4.2.1. The workaround is to restart the sync service.',
      'support_requests',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        ['Globex Corp', 'customer', 'globex corp'],
        ['ERR_SYNC_TIMEOUT', 'error', 'err sync timeout'],
        ['version 4.2.1', 'version', '4.2.1'],
        ['Export', 'product', 'export'],
        ['sync service', 'feature', 'sync service'],
      ]),
    );
  });

  it('types people as authors and noun phrases as concepts in essays', () => {
    const found = mentions('Philosopher Hannah Arendt argues that totalitarian movements depend on mass loneliness.', 'essays');
    expect(found).toEqual(
      expect.arrayContaining([
        ['Hannah Arendt', 'author', 'hannah arendt'],
        ['totalitarian movements', 'concept', 'totalitarian movement'],
        ['mass loneliness', 'concept', 'mass loneliness'],
      ]),
    );
  });
});
