/**
 * Languages in the lexical analyzer: detection, per-language stemming found by inflected queries, Chinese
 * and Japanese words, English token streams pinned, and the segment's record of its languages.
 */
import { describe, expect, it } from 'vitest';
import { fc } from '../../support/property-seed';
import { analyze, analyzeInEach, analyzeInOne, queryTermCounts } from '../../../functions/engine/lexical/analyzer';
import { detectLanguage, detectLanguages, type Language } from '../../../functions/engine/lexical/language';
import { buildRetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import {
  buildSegment,
  deserializeSegment,
  type LexicalDocument,
  search,
  serializeSegment,
} from '../../../functions/engine/lexical/segment';

/** One paragraph per language, each naming its subject in one inflected form. */
const PARAGRAPHS: Record<Exclude<Language, 'en'>, string> = {
  de: 'Das alte Haus steht am Ende der Straße. Es wurde von einem Architekten aus Wien gebaut und ist heute ein Museum für die Geschichte der Stadt.',
  fr: "Le cheval galopait dans la prairie près de la ferme. Il appartenait à un vieux paysan qui l'avait acheté au marché de la ville.",
  es: 'La canción fue escrita por un joven poeta de Sevilla. Se hizo muy popular en toda la región durante el verano de aquel año.',
  it: 'Il libro racconta la storia di una famiglia che vive in campagna. È stato scritto da un autore che non aveva mai lasciato la sua città.',
  pt: 'A cidade fica perto do rio e tem uma praça muito bonita. Os moradores se encontram no mercado todas as manhãs para conversar.',
  nl: 'Het boek ligt op de tafel in de kamer. Het werd geschreven door een schrijver die in een klein dorp aan de kust woonde.',
  zh: '这座城市的图书馆藏有很多珍贵的古籍。每天都有许多学生来这里学习和研究历史。',
  ja: '東京タワーは日本の首都にある電波塔です。多くの観光客が毎日展望台から景色を楽しんでいます。',
};

const ENGLISH: LexicalDocument[] = [
  { id: 'en-1', fileId: 'f-en', text: 'The runners were running quickly through the old houses of the city.' },
  { id: 'en-2', fileId: 'f-en', text: 'Mitochondria produce ATP through oxidative phosphorylation in the cell.' },
];

const MIXED: LexicalDocument[] = [
  ...ENGLISH,
  ...Object.entries(PARAGRAPHS).map(([language, text]) => ({ id: language, fileId: `f-${language}`, text })),
];

/** A query in another inflected form (or a part of a compound) than its paragraph holds. */
const QUERIES: Array<{ language: Language; query: string }> = [
  { language: 'de', query: 'Häuser' },
  { language: 'fr', query: 'chevaux' },
  { language: 'es', query: 'canciones' },
  { language: 'it', query: 'libri' },
  { language: 'pt', query: 'cidades' },
  { language: 'nl', query: 'boeken' },
  { language: 'zh', query: '图书馆' },
  { language: 'ja', query: 'タワー' },
];

describe('detectLanguage', () => {
  it('tells each language from its function words or script', () => {
    for (const [language, text] of Object.entries(PARAGRAPHS)) expect(detectLanguage(text)).toBe(language);
    expect(detectLanguage(ENGLISH[0]?.text ?? '')).toBe('en');
  });

  it('stays English without evidence: names, codes, short titles, English text quoting a foreign name', () => {
    for (const text of [
      '',
      'Häuser',
      'Jean-Paul Sartre',
      'ERR_CONN_RESET 0x80070005',
      'So ein Millionär hat’s schwer is a 1958 Austrian film directed by Géza von Cziffra.',
    ]) {
      expect(detectLanguage(text)).toBe('en');
    }
    expect(detectLanguage('The Tokyo Tower (東京タワー) is a communications tower in Minato, Tokyo, Japan, built in 1958.')).toBe('en');
  });
});

describe('analysis per language', () => {
  it('stems and folds each language with its Snowball stemmer and stopwords', () => {
    expect(analyze('Die Häuser und das Haus', { language: 'de' })).toEqual(['haus', 'haus']);
    expect(analyze("Les chevaux de l'écurie", { language: 'fr' })).toEqual(['cheval', 'ecur']);
    expect(analyze("dell'arte", { language: 'it' })).toEqual(['arte']);
    expect(analyze('canciones y canción', { language: 'es' })).toEqual(['cancion', 'cancion']);
    expect(analyze('as cidades e a cidade', { language: 'pt' })).toEqual(['cidad', 'cidad']);
    expect(analyze('de boeken en het boek', { language: 'nl' })).toEqual(['boek', 'boek']);
    expect(analyze('Die Häuser', { language: 'de', stem: false, stopwords: false })).toEqual(['die', 'hauser']);
  });

  it('cuts Chinese and Japanese into words, each followed by its characters', () => {
    expect(analyze('我们在北京学习。')).toEqual(['我们', '我', '们', '北京', '北', '京', '学习', '学', '习']);
    expect(analyze('東京タワーは日本にあります')).toEqual([
      '東京タワー',
      '東',
      '京',
      'タ',
      'ワ',
      'ー',
      '日本',
      '日',
      '本',
      'あり',
      'あ',
      'り',
    ]);
    expect(analyze('我们用 Python 和 running shoes 学习', { language: 'zh' })).toEqual([
      '我们',
      '我',
      '们',
      '用',
      'python',
      'run',
      'shoe',
      '学习',
      '学',
      '习',
    ]);
  });

  it('finds every paragraph by a query in another inflection, where unstemmed BM25 finds nothing', () => {
    const stemmed = buildSegment(MIXED);
    const plain = buildSegment(MIXED, { stem: false });
    expect(stemmed.languages).toEqual(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'zh', 'ja']);
    for (const { language, query } of QUERIES) {
      expect(search(stemmed, query, 3)[0]?.id, query).toBe(language);
      if (language !== 'zh' && language !== 'ja') expect(search(plain, query, 3), query).toEqual([]);
    }
  });

  it('keeps English queries on English text in a mixed index', () => {
    const segment = buildSegment(MIXED);
    expect(search(segment, 'running houses', 3)[0]?.id).toBe('en-1');
    expect(search(segment, 'phosphorylation', 3)[0]?.id).toBe('en-2');
  });

  it('analyzes every text in the one language set for the memory', () => {
    const segment = buildSegment([{ id: 'x', fileId: 'f', text: 'Häuser' }], { language: 'de' });
    expect(segment.languages).toEqual(['de']);
    expect(search(segment, 'Haus', 1)[0]?.id).toBe('x');
    expect([...queryTermCounts('Häuser', { language: 'de' }, ['en', 'fr'])]).toEqual([['haus', 1]]);
  });

  it('reads a query in each language of the index, a term counting as often as its most frequent reading', () => {
    expect([...queryTermCounts('Häuser Häuser', {}, ['en', 'de'])]).toEqual([
      ['hauser', 2],
      ['haus', 2],
    ]);
    expect([...queryTermCounts('Häuser', {}, [])]).toEqual([['hauser', 1]]);
    expect(analyzeInEach('Häuser', {}, ['en', 'de'])).toEqual(['hauser', 'haus']);
    expect(analyzeInOne(PARAGRAPHS.de, {}, ['en', 'de'])).toEqual(analyze(PARAGRAPHS.de, { language: 'de' }));
    expect(analyzeInOne(PARAGRAPHS.de, {}, ['en'])).toEqual(analyze(PARAGRAPHS.de, { language: 'en' }));
  });

  it('reads a short text in several languages as each language alone reads it, in order (ASCII texts split once)', () => {
    const unit = fc.constantFrom(
      'a',
      'B',
      'z',
      'é',
      'ß',
      "'",
      '\u2019',
      ' ',
      '.',
      '-',
      '1',
      '3.5',
      'the',
      'dell',
      'house',
      'Häuser',
      '東京',
      'ﬁ',
    );
    const readings: Array<Language[]> = [
      ['en', 'it', 'pt'],
      ['it', 'en'],
      ['en', 'de', 'zh'],
      ['fr', 'en', 'nl'],
    ];
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.constantFrom(...readings), fc.boolean(), (text, languages, stem) => {
        const options = { stem, stopwords: !stem };
        const alone = languages.flatMap((language) => analyze(text, { ...options, language }));
        expect(analyzeInEach(text, options, languages)).toEqual(alone);
      }),
      { numRuns: 500 },
    );
  });
});

describe('languages of a memory', () => {
  it('gives a text with no evidence the language most texts show', () => {
    const texts = [PARAGRAPHS.es, 'Nadie será privado de su propiedad.', 'Madrid'];
    expect(detectLanguages(texts)).toEqual(['es', 'es', 'es']);
    expect(detectLanguages(['Madrid', ENGLISH[0]?.text ?? ''])).toEqual(['en', 'en']);
    expect(detectLanguages(['Madrid'], 'de')).toEqual(['de']);
  });

  it('keeps the language of unchanged chunks and gives it to new chunks that show none', async () => {
    const chunk = (id: string, text: string) => ({ id, fileId: 'f', text, title: '' });
    const first = await buildRetrievalIndex([chunk('a', PARAGRAPHS.de), chunk('b', 'Die Häuser der Stadt sind alt und schön.')]);
    expect(first.text.languages).toEqual(['de']);
    const second = await buildRetrievalIndex([chunk('a', PARAGRAPHS.de), chunk('c', 'Häuser in Wien')], { previous: first });
    expect(second.text.languages).toEqual(['de']);
    expect(search(second.text, 'Haus', 2).map((hit) => hit.id)).toEqual(['c', 'a']);
  });
});

describe('English stays as it was', () => {
  /** Token streams of the English analyzer before languages existed (analyzer.ts at 1b77b40). */
  const PINNED: Array<[string, string]> = [
    ['The runners were running quickly', 'runner run quick'],
    ["O'Neil's dog isn't here, we'll see; it’s well", 'oneil dog see well'],
    ['COVID-19 spread; IL6 levels in 2019 and 3.5 mg', 'covid 19 spread il6 level 2019 3.5 mg'],
    ['Café MÜLLER naïve Straße Ærø œuvre ﬁsh Łódź', 'cafe muller naiv strass aero oeuvr fish lodz'],
    ['Die Hard is a 1988 American action film; La La Land is a musical.', 'die hard 1988 american action film la la land music'],
    ['So ein Millionär hat’s schwer is a 1958 Austrian film', 'ein millionar hat schwer 1958 austrian film'],
  ];

  it('gives the pinned token streams, alone and as queries and sentences of an English index', () => {
    for (const [text, terms] of PINNED) {
      expect(analyze(text).join(' '), text).toBe(terms);
      expect(analyzeInOne(text, {}, ['en']).join(' ')).toBe(terms);
      expect(analyzeInEach(text, {}, ['en']).join(' ')).toBe(terms);
      expect([...queryTermCounts(text, {}, ['en']).keys()].join(' ')).toBe([...new Set(terms.split(' '))].join(' '));
    }
  });

  it('records an English-only segment as English, so queries are read as English alone', () => {
    const segment = buildSegment(ENGLISH);
    expect(segment.languages).toEqual(['en']);
    expect(deserializeSegment(serializeSegment(segment)).languages).toEqual(['en']);
  });
});
