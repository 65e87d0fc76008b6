/**
 * End to end over a small memory with the offline embedder (the installed word vectors): paraphrase,
 * facts, extracts, title links, the graph hook, acceleration, and the serialised index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deserializeRetrievalIndex, serializeRetrievalIndex } from '../../../functions/engine/retrieval/index-format';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { retrieve } from '../../../functions/engine/retrieval/retrieve';
import { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectorEmbedder, loadWordVectors } from '../../../functions/adapters/embeddings/word-vector-loader';
import { chunkText } from '../../../functions/engine/text/chunker';

const DOCUMENTS: Array<{ id: string; title: string; text: string }> = [
  { id: 'cardio', title: 'Cardiology', text: 'A cardiologist is a physician who specialises in disorders of the cardiovascular system.' },
  { id: 'bread', title: 'Baking', text: 'Knead the dough, let it rise for an hour, then bake the loaf in a hot oven until golden.' },
  {
    id: 'apollo',
    title: 'Apollo program',
    text: 'The Apollo program landed twelve astronauts on the Moon between 1969 and 1972. Its first landing was Apollo 11.',
  },
  {
    id: 'moonfall',
    title: 'Moonfall (novel)',
    text: 'Moonfall is a 1994 science fiction novel. It was written by Jane Harlow and won a regional prize.',
  },
  { id: 'harlow', title: 'Jane Harlow', text: 'Jane Harlow is a British writer. She was born in Dunmore and studied history at Leeds.' },
  {
    id: 'harbour',
    title: 'Harbours',
    text: 'A harbour shelters ships from waves. Breakwaters protect the entrance. Cranes load the cargo.',
  },
  {
    id: 'volcano',
    title: 'Volcanoes',
    text:
      'A volcano is an opening in the crust of a planet. Molten rock called magma rises from below. ' +
      'When it reaches the surface it is called lava. Eruptions can be explosive or gentle. ' +
      'Ash clouds from large eruptions can disrupt air travel for weeks. Some volcanoes are dormant for centuries.',
  },
];

function chunks(size = 1000): RetrievalChunk[] {
  return DOCUMENTS.flatMap((doc) =>
    chunkText(doc.text, { chunkSize: size, overlapPercent: 20 }).map((chunk) => ({
      id: `${doc.id}#${chunk.index}`,
      fileId: doc.id,
      text: chunk.text,
      title: doc.title,
      start: chunk.start,
      end: chunk.end,
    })),
  );
}

let embedder: WordVectorEmbedder;
let index: RetrievalIndex;

beforeAll(async () => {
  embedder = loadWordVectorEmbedder();
  index = await buildRetrievalIndex(chunks(), { embedder });
}, 60_000);

describe('retrieve', () => {
  it('ranks the right chunk first for a paraphrased question that shares no word with it', async () => {
    const request = { query: 'Which kind of doctor treats heart illness?', topK: 3 };
    const fused = await retrieve(index, request, { embedder });
    expect(fused.semantic).toBe(true);
    expect(fused.items[0]?.fileId).toBe('cardio');
    expect((await retrieve(index, { ...request, mode: 'semantic' }, { embedder })).items[0]?.fileId).toBe('cardio');
    expect((await retrieve(index, { ...request, mode: 'lexical' }, { embedder })).items).toEqual([]);
  });

  it('returns topK payload items {content, score}, best first, and their sources', async () => {
    const outcome = await retrieve(index, { query: 'astronauts landing on the Moon', topK: 2 }, { embedder });
    expect(outcome.payload).toHaveLength(2);
    expect(outcome.payload[0]?.content).toContain('Apollo program landed');
    expect(Object.keys(outcome.payload[0] ?? {}).sort()).toEqual(['content', 'score']);
    expect(outcome.payload[0]?.score).toBeGreaterThan(outcome.payload[1]?.score ?? Number.POSITIVE_INFINITY);
    expect(outcome.sources[0]).toEqual({ fileId: 'apollo', score: outcome.payload[0]?.score });
    expect(outcome.facts).toEqual([]);
  });

  it('follows a title mention to the second hop of a two-hop question', async () => {
    const request = { query: 'Which city is the hometown of the author of the novel Moonfall?', topK: 2, mode: 'lexical' as const };
    const linked = await retrieve(index, request, { embedder });
    expect(linked.items.map((item) => item.fileId).sort()).toEqual(['harlow', 'moonfall']);
    const unlinked = await retrieve(index, { ...request, params: { links: { weight: 0 } } }, { embedder });
    expect(unlinked.items.map((item) => item.fileId)).not.toContain('harlow');
  });

  it('fuses a graph list given by chunk id', async () => {
    const request = { query: 'ships in the harbour', topK: 1 };
    expect((await retrieve(index, request, { embedder })).items[0]?.fileId).toBe('harbour');
    const graph = [
      {
        name: 'graph',
        weight: 5,
        hits: [
          { chunkId: 'bread#0', score: 0.9 },
          { chunkId: 'unknown', score: 1 },
        ],
      },
    ];
    expect((await retrieve(index, { ...request, external: graph }, { embedder })).items[0]?.fileId).toBe('bread');
  });

  it('answers lexically when the embedder is not the one the index was built with', async () => {
    const other = new WordVectorEmbedder(loadWordVectors(), { sifA: 0.5 });
    const outcome = await retrieve(index, { query: 'bake the loaf', topK: 1 }, { embedder: other });
    expect(outcome.semantic).toBe(false);
    expect(outcome.items[0]?.fileId).toBe('bread');
  });
});

describe('exclusions', () => {
  it('never returns, follows links from, or takes facts of chunks that are not allowed', async () => {
    const moonfall = index.chunks.ids.indexOf('moonfall#0');
    const allow = (ordinal: number): boolean => ordinal !== moonfall;
    const request = { query: 'Which city is the hometown of the author of the novel Moonfall?', topK: 3, facts: true, allow };
    const memoryFacts = [{ content: 'Moonfall was written by Jane Harlow.', chunkId: 'moonfall#0' }];
    const outcome = await retrieve(index, { ...request, memoryFacts }, { embedder });
    expect(outcome.items.map((item) => item.fileId)).not.toContain('moonfall');
    expect(outcome.facts.map((fact) => fact.content)).not.toContain('Moonfall was written by Jane Harlow.');
    const lexical = await retrieve(index, { ...request, mode: 'lexical' }, { embedder });
    expect(lexical.items.map((item) => item.fileId)).not.toContain('harlow');
  });
});

describe('facts', () => {
  const memoryFacts = [
    { content: 'Lava is molten rock that has reached the surface.', fileId: 'volcano' },
    { content: 'Volcanic ash can ground aircraft for weeks.' },
    { content: 'Bread dough rises because yeast produces gas.' },
    { content: 'Magma rises from the mantle below a volcano.' },
    { content: 'Cranes load cargo in harbours.' },
  ];

  it('gives exactly three, the most relevant of the memory facts', async () => {
    const outcome = await retrieve(
      index,
      { query: 'How does a volcano produce lava and ash?', topK: 3, facts: true, memoryFacts },
      { embedder },
    );
    expect(outcome.facts).toHaveLength(3);
    expect(outcome.facts.map((fact) => fact.content)).not.toContain('Bread dough rises because yeast produces gas.');
    expect(outcome.facts.map((fact) => fact.content)).toContain('Lava is molten rock that has reached the surface.');
  });

  it('gives exactly three sentences of the retrieved chunks when the memory has no facts', async () => {
    const outcome = await retrieve(index, { query: 'What happens during volcanic eruptions?', topK: 2, facts: true }, { embedder });
    expect(outcome.facts).toHaveLength(3);
    for (const fact of outcome.facts) expect(outcome.items.some((item) => item.content.includes(fact.content))).toBe(true);
    expect(new Set(outcome.facts.map((fact) => fact.content)).size).toBe(3);
  });

  it('tops up too few memory facts with sentences', async () => {
    const outcome = await retrieve(
      index,
      { query: 'volcano eruptions', topK: 2, facts: true, memoryFacts: memoryFacts.slice(0, 1) },
      { embedder },
    );
    expect(outcome.facts).toHaveLength(3);
    expect(outcome.facts[0]?.content).toBe('Lava is molten rock that has reached the surface.');
  });
});

describe('assisted extracts', () => {
  it('cuts a chunk down to the answering sentences with their context and title', async () => {
    const query = 'Why do ash clouds matter for air travel?';
    const raw = await retrieve(index, { query, topK: 1 }, { embedder });
    const assisted = await retrieve(index, { query, topK: 1, assisted: true }, { embedder });
    const extract = assisted.payload[0]?.content ?? '';
    expect(extract.startsWith('Volcanoes: ')).toBe(true);
    expect(extract).toContain('Ash clouds from large eruptions can disrupt air travel for weeks.');
    expect(extract.length).toBeLessThan((raw.payload[0]?.content ?? '').length);
    expect(assisted.payload[0]?.score).toBe(raw.payload[0]?.score);
  });
});

describe('index variants', () => {
  it('serialises and loads to an index that answers identically, with and without acceleration', async () => {
    for (const acceleration of [false, true]) {
      const built = await buildRetrievalIndex(chunks(120), { embedder, acceleration });
      const loaded = deserializeRetrievalIndex(serializeRetrievalIndex(built));
      expect(loaded.ann !== null).toBe(acceleration);
      for (const query of ['Who wrote Moonfall?', 'magma and lava', 'heart physician']) {
        const request = { query, topK: 3, facts: true };
        expect(await retrieve(loaded, request, { embedder })).toEqual(await retrieve(built, request, { embedder }));
      }
    }
  });

  it('merges overlapping chunks of one document into one payload item', async () => {
    const small = await buildRetrievalIndex(chunks(120), { embedder });
    const outcome = await retrieve(small, { query: 'volcano magma lava eruptions ash dormant', topK: 3 }, { embedder });
    const volcano = outcome.items.filter((item) => item.fileId === 'volcano');
    expect(volcano.length).toBeGreaterThan(0);
    expect(volcano.some((item) => item.ordinals.length > 1)).toBe(true);
    for (const item of volcano) expect(DOCUMENTS.find((doc) => doc.id === 'volcano')?.text).toContain(item.content);
  });

  it('works without an embedder (lexical only)', async () => {
    const lexical = await buildRetrievalIndex(chunks());
    const outcome = await retrieve(lexical, { query: 'bake bread in the oven', topK: 1, facts: true }, {});
    expect(outcome.semantic).toBe(false);
    expect(outcome.items[0]?.fileId).toBe('bread');
    expect(outcome.facts.length).toBeGreaterThan(0);
  });
});

describe('ranking depth', () => {
  it('still answers topK items when the best hits merge into few (it ranks deeper once)', async () => {
    const lava = Array.from({ length: 30 }, (_, i) => `Lava flow ${i} glows red as the lava cools.`).join(' ');
    const others = Array.from({ length: 14 }, (_, i) => ({
      id: `other-${i}`,
      text: `Report ${i} on island ${i} mentions lava once among many other unrelated harbour notes.`,
    }));
    const corpus = [{ id: 'lava', text: lava }, ...others].flatMap((doc) =>
      chunkText(doc.text, { chunkSize: 120, overlapPercent: 40 }).map((chunk) => ({
        id: `${doc.id}#${chunk.index}`,
        fileId: doc.id,
        text: chunk.text,
        title: '',
        start: chunk.start,
        end: chunk.end,
      })),
    );
    const built = await buildRetrievalIndex(corpus, { embedder });
    const outcome = await retrieve(built, { query: 'lava', topK: 12 }, { embedder });
    expect(outcome.items).toHaveLength(12);
    expect(new Set(outcome.items.map((item) => item.fileId)).size).toBeGreaterThan(1);
    const lavaItems = outcome.items.filter((item) => item.fileId === 'lava');
    for (const item of lavaItems) expect(lava).toContain(item.content);
  });
});
