/** A customer user's first-person statements: what they are, which supersede which, and the profile as of a date. */
import { describe, expect, it } from 'vitest';
import { speakerStatements } from '../../../functions/engine/graph/profile-statements';
import { PATTERNS } from '../../../functions/engine/graph/profile-patterns';
import { createMemoryGraph, mergeFile, extractFile } from '../../../functions/engine/graph/graph-build';
import { refreshValidity } from '../../../functions/engine/graph/validity';
import { buildGraphSegment } from '../../../functions/engine/graph/graph-segment';
import { profileOf, supersededChunks } from '../../../functions/engine/graph/dated-facts';

const source = { speaker: 'u1', chunkId: 'c', sourceId: 'm', time: '2024-01-01T00:00:00.000Z' };
const said = (text: string) => speakerStatements(text, source).map((s) => [s.category, s.kind, s.slot ?? null, s.value]);

describe('speakerStatements', () => {
  it('finds preferences and facts in first-person sentences, one per clause', () => {
    expect(said('I live in Paris and I work at Acme Corporation.')).toEqual([
      ['fact', 'residence', 'residence', 'Paris'],
      ['fact', 'work', 'employer', 'Acme Corporation'],
    ]);
    expect(said('We moved to Berlin last week!')).toEqual([['fact', 'residence', 'residence', 'Berlin']]);
    expect(said("I'm vegetarian.")).toEqual([['preference', 'diet', 'diet', 'vegetarian']]);
    expect(said('I prefer window seats over aisle seats.')).toEqual([['preference', 'prefer', 'prefer:seat', 'window seats']]);
    expect(said('I really love hiking and photography.')).toEqual([
      ['preference', 'like', 'opinion:hiking', 'like hiking'],
      ['preference', 'like', 'opinion:photography', 'like photography'],
    ]);
    expect(said("I don't drink coffee anymore.")).toEqual([['preference', 'dislike', 'opinion:coffee', 'dislike coffee']]);
    expect(said("I'd love to visit Japan next year.")).toEqual([['preference', 'wish', null, 'visit Japan']]);
    expect(said("My wife's name is Anna.")).toEqual([['fact', 'partner', 'partner', 'wife: Anna']]);
    expect(said("I'm planning to learn Spanish.")).toEqual([['fact', 'plan', null, 'learn Spanish']]);
  });

  it('reads wordings that name the value first, titles, and requests for the future', () => {
    expect(said('Berlin has been our home for years.')).toEqual([['fact', 'residence', 'residence', 'Berlin']]);
    expect(said('Lisbon has been home for a long time.')).toEqual([['fact', 'residence', 'residence', 'Lisbon']]);
    expect(said('Oslo is my home now.')).toEqual([['fact', 'residence', 'residence', 'Oslo']]);
    expect(said('We just settled into a new apartment in San Diego.')).toEqual([['fact', 'residence', 'residence', 'San Diego']]);
    expect(said('I call Buenos Aires home.')).toEqual([['fact', 'residence', 'residence', 'Buenos Aires']]);
    expect(said("I'm the founder of Blue Harbor Labs.")).toEqual([['fact', 'work', 'employer', 'Blue Harbor Labs']]);
    expect(said('I am CEO at Northwind.')).toEqual([['fact', 'work', 'employer', 'Northwind']]);
    expect(said('My new employer is Contoso.')).toEqual([['fact', 'work', 'employer', 'Contoso']]);
    expect(said('Guess what, Fabrikam hired me!')).toEqual([['fact', 'work', 'employer', 'Fabrikam']]);
    expect(said('I can never get enough of dumplings.')).toEqual([['preference', 'like', 'opinion:dumpling', 'like dumplings']]);
    expect(said("Salsa dancing isn't my cup of tea.")).toEqual([
      ['preference', 'dislike', 'opinion:salsa dancing', 'dislike Salsa dancing'],
    ]);
    expect(said('We became vegan in March.')).toEqual([['preference', 'diet', 'diet', 'vegan']]);
    expect(said('Always book me aisle seats, please.')).toEqual([['preference', 'prefer', 'prefer:seat', 'aisle seats']]);
  });

  it('keeps away from look-alikes of those wordings', () => {
    expect(said('Paris is home to the Louvre.')).toEqual([]);
    expect(said('Dad has been home all day.')).toEqual([]);
    expect(said('He is my home.')).toEqual([]);
    expect(said('Fabrikam hired a new CEO.')).toEqual([]);
    expect(said('That is not for me to decide.')).toEqual([]);
    expect(said('Book me a table for tonight.')).toEqual([]);
    expect(said("I'm tired of Mondays.")).toEqual([]);
  });

  it('ignores questions, pronoun objects and sentences about others', () => {
    expect(said('Do you think I like it?')).toEqual([]);
    expect(said('I love you too!')).toEqual([]);
    expect(said('My friend lives in Rome.')).toEqual([]);
    expect(said('I started running.')).toEqual([]);
  });
});

describe('the words a pattern needs', () => {
  const sentences = [
    "I'd love to visit Japan.",
    "I don't drink coffee anymore.",
    'Sushi is not for me.',
    "Salsa dancing isn't my cup of tea.",
    'I hate mornings.',
    "I'm allergic to cats.",
    'I would favour the train.',
    'Please always book me aisle seats.',
    'Book me window seats every time.',
    'I adore jazz.',
    "Can't get enough of sushi.",
    "I'm obsessed with chess.",
    'I AM ON A KETO DIET.',
    'We went gluten-free.',
    'I regularly swim.',
    'I dream of Rome.',
    'We are living in Oslo.',
    'We have moved to Lima.',
    "I'm based in Quito.",
    'Lisbon has been home for years.',
    'Just settled into our new flat in Porto.',
    'We now call Austin home.',
    "I'm relocating to Kyiv.",
    'I work as a nurse.',
    'I have joined Globex.',
    "I'm an analyst at Initech.",
    'I am CEO of Northwind.',
    'My workplace is Contoso.',
    'Fabrikam took me on.',
    "I'm engaged to Sam.",
    'My fiancée is called Ana.',
    "My grandma's name is Rose.",
    'I have two daughters.',
    "I'm hoping to run a marathon.",
    'I intend to learn Greek.',
  ];

  it('holds for every match: a sentence without them would not match (so skipping it changes nothing)', () => {
    let matched = 0;
    for (const sentence of sentences) {
      for (const rule of PATTERNS) {
        if (!rule.pattern.test(sentence)) continue;
        matched++;
        expect(
          rule.needs.some((word) => sentence.toLowerCase().includes(word)),
          `${rule.kind}: ${sentence}`,
        ).toBe(true);
      }
      expect(speakerStatements(sentence, source).length, sentence).toBeGreaterThan(0);
    }
    expect(matched).toBeGreaterThanOrEqual(sentences.length);
  });
});

describe('profiles from a conversation', () => {
  const messages = [
    ['m1', '2024-01-10T00:00:00.000Z', 'I live in Paris. I like tea.'],
    ['m2', '2024-03-01T00:00:00.000Z', 'I also like coffee. I prefer window seats.'],
    ['m3', '2024-06-01T00:00:00.000Z', 'We moved to Berlin.'],
    ['m4', '2024-08-01T00:00:00.000Z', 'I prefer aisle seats now.'],
  ] as const;
  const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
  const chunks = messages.map(([id, , text]) => ({ id: `msg:${id}`, text }));
  const origins = new Map(messages.map(([id, time, text]) => [`msg:${id}`, { time, sourceId: id, speaker: 'u1', text }]));
  mergeFile(memory, extractFile({ fileId: 'session:s', chunks }, { schema: memory.graph.schema, factExtraction: true }), {
    chunks: origins,
  });
  refreshValidity(memory.graph);
  const segment = buildGraphSegment(memory.graph);

  it('lists what holds first, latest first, then what was replaced; multi-valued likes both stay', () => {
    const now = profileOf(segment, 'u1', '2025-01-01T00:00:00.000Z');
    expect(now.facts.map((entry) => [entry.content, entry.validTo])).toEqual([
      ['We moved to Berlin.', null],
      ['I live in Paris.', '2024-06-01T00:00:00.000Z'],
    ]);
    expect(now.preferences.map((entry) => [entry.content, entry.validTo])).toEqual([
      ['I prefer aisle seats now.', null],
      ['I also like coffee.', null],
      ['I like tea.', null],
      ['I prefer window seats.', '2024-08-01T00:00:00.000Z'],
    ]);
    expect(now.facts[0]).toMatchObject({ sourceId: 'm3', validFrom: '2024-06-01T00:00:00.000Z' });
  });

  it('as of a past date leaves out what was said later', () => {
    const then = profileOf(segment, 'u1', '2024-04-01T00:00:00.000Z');
    expect(then.facts.map((entry) => entry.content)).toEqual(['I live in Paris.']);
    expect(then.preferences.map((entry) => entry.content)).toEqual(['I also like coffee.', 'I prefer window seats.', 'I like tea.']);
    expect(profileOf(segment, 'someone else', '2025-01-01T00:00:00.000Z')).toEqual({ preferences: [], facts: [] });
  });

  it('marks the chunks whose statements were replaced by a date', () => {
    expect([...supersededChunks(segment, '2024-07-01T00:00:00.000Z')]).toEqual(['msg:m1']);
    expect([...supersededChunks(segment, '2024-09-01T00:00:00.000Z')].sort()).toEqual(['msg:m1', 'msg:m2']);
    expect([...supersededChunks(segment, '2024-02-01T00:00:00.000Z')]).toEqual([]);
  });
});
