/** Graph extraction on text in languages with no NLP model: names by capitalisation, links by co-occurrence, no English-model noise. */
import { describe, expect, it } from 'vitest';
import { extractMentions } from '../../../functions/engine/graph/extract-entities';
import { parseText } from '../../../functions/engine/graph/nlp';
import { ontologySchema } from '../../../functions/engine/graph/ontology';
import { extractRelations } from '../../../functions/engine/graph/relations';

const schema = ontologySchema('culture');

function extract(text: string) {
  const parsed = parseText(text);
  const mentions = extractMentions(parsed, schema);
  return { parsed, mentions, relations: extractRelations(parsed, mentions, schema, { facts: true }) };
}

function surfaces(text: string): string[] {
  return extract(text).mentions.map((mention) => mention.surface);
}

describe('graph extraction beyond English', () => {
  it('finds French names by capitalisation, joined by particles, and no noun phrases', () => {
    const text =
      'Marie Curie est née à Varsovie en 1867. Elle a travaillé à Paris avec Pierre Curie, puis elle a reçu le prix Nobel de physique. Ensuite elle a enseigné à la Sorbonne.';
    const found = surfaces(text);
    expect(found).toEqual(expect.arrayContaining(['Marie Curie', 'Varsovie', 'Paris', 'Pierre Curie', 'Nobel', 'Sorbonne']));
    expect(found).not.toContain('Ensuite');
    expect(found).not.toContain('Elle');
    expect(extract(text).mentions.every((mention) => mention.kind !== 'phrase')).toBe(true);
  });

  it('links the names of a sentence by co-occurrence only (no verbs read by the English model)', () => {
    const { mentions, relations } = extract('Pedro Almodóvar rodó la película en Madrid con Penélope Cruz durante el verano de 2005.');
    expect(mentions.map((mention) => mention.surface)).toEqual(expect.arrayContaining(['Pedro Almodóvar', 'Madrid', 'Penélope Cruz']));
    expect(relations.length).toBeGreaterThan(0);
    expect(relations.every((relation) => relation.kind === 'cooccurrence')).toBe(true);
  });

  it('keeps German names but not capitalised common nouns with noun endings or sentence-opening words', () => {
    const found = surfaces(
      'Gestern besuchte Angela Merkel die Stadt München. Die Bundesregierung plant eine Verbesserung der Gesundheit aller Bürger in Bayern.',
    );
    expect(found).toEqual(expect.arrayContaining(['Angela Merkel', 'Bayern']));
    expect(found.some((surface) => surface.endsWith('München'))).toBe(true);
    for (const noise of ['Gestern', 'Die', 'Bundesregierung', 'Verbesserung', 'Gesundheit']) expect(found).not.toContain(noise);
  });

  it('finds no entities in Chinese or Japanese rather than wrong ones, but keeps acronyms', () => {
    expect(surfaces('这座城市的图书馆藏有很多珍贵的古籍。每天都有许多学生来这里学习。')).toEqual([]);
    expect(surfaces('東京タワーは日本の首都にある電波塔です。NHKの放送にも使われています。')).toEqual(['NHK']);
  });

  it('leaves English extraction to the English model (noun phrases still found)', () => {
    const found = extract('Physicist Marie Curie was born in Warsaw and studied radioactive decay at the University of Paris.').mentions;
    expect(found.map((mention) => mention.surface)).toEqual(expect.arrayContaining(['Marie Curie', 'Warsaw', 'University of Paris']));
    expect(found.some((mention) => mention.kind === 'phrase')).toBe(true);
  });
});
