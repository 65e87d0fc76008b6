/**
 * The graph side of retrieval earns its place: for a two-hop question whose second hop shares few words
 * with it, the lexical ranking leaves that passage out of its top two; the personalized PageRank walk from
 * the question's entities puts it there, and fusing the walk lifts it. (How much, on real data: the
 * MuSiQue rows of `npm run bench:quality`.)
 */
import { describe, expect, it } from 'vitest';
import { buildGraphSegment, linkQueryToEntities, personalizedPageRank, topChunks } from '../../../functions/engine';
import { createMemoryGraph } from '../../../functions/engine/graph';
import { addFile } from '../../../functions/engine/graph/graph-build';
import { rankChunks } from '../../../functions/engine/retrieval/rank';
import { buildRetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';

const CHUNKS = [
  { id: 'a:0', fileId: 'a', text: 'Marie Curie worked at the Radium Institute for most of her career.' },
  { id: 'b:0', fileId: 'b', text: 'The Radium Institute stands beside the river Seine in Paris.' },
  { id: 'c:0', fileId: 'c', text: 'Everyone in the old city worked late during the long harvest festival.' },
  { id: 'd:0', fileId: 'd', text: 'Which city is largest depends on where the borders are drawn.' },
];

describe('the graph walk in retrieval', () => {
  it('finds the second hop that lexical ranking alone misses', async () => {
    const index = await buildRetrievalIndex(CHUNKS);
    const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
    for (const chunk of CHUNKS) addFile(memory, { fileId: chunk.fileId, chunks: [{ id: chunk.id, text: chunk.text }] });
    const graph = buildGraphSegment(memory.graph);
    const query = 'In which city is the institute where Marie Curie worked?';

    const ids = (hits: Array<{ ordinal: number }>) => hits.map((hit) => index.chunks.ids[hit.ordinal]);
    const lexical = ids(rankChunks(index, { query, limit: 4, mode: 'lexical' }));
    expect(lexical.slice(0, 2)).not.toContain('b:0');

    const seeds = new Map(linkQueryToEntities(graph, query).map((link) => [link.entity, link.weight] as const));
    const walk = topChunks(graph, personalizedPageRank(graph, seeds).chunkScores, 10);
    expect(
      walk
        .slice(0, 2)
        .map((hit) => hit.chunkId)
        .sort(),
    ).toEqual(['a:0', 'b:0']); // the walk reaches the second hop

    const external = [{ name: 'graph', hits: walk.map((h) => ({ chunkId: h.chunkId, score: h.score })) }];
    const fused = ids(rankChunks(index, { query, limit: 4, mode: 'fused', external }));
    expect(fused.indexOf('b:0')).toBeLessThan(lexical.indexOf('b:0') < 0 ? 4 : lexical.indexOf('b:0')); // and lifts it
  });
});
