/** MCP tools that read memories: search, list, get, ingestion status, explore an entity. */
import { filterInput, filterParam } from './filter-input';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { KmemClient, Schemas } from '../../packages/client/src';
import { answered, fittingItems, leftOutNote, type PresentedItem, present } from './tool-results';

const memoryID = z.string().min(1).max(128).describe('The memory id (see list_memories)');
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

type SearchResult = Schemas['SearchResult'];
type Source = SearchResult['sources'][number];

/**
 * The search answer: each passage once (its text in the content, its rank, score and source in the
 * structured content), best first, as many as fit one response.
 */
function presentSearch(result: SearchResult): CallToolResult {
  const sources = new Map(result.sources.map((source) => [source.id, source]));
  const presented = result.payload.map((passage, i): PresentedItem<{ rank: number; score: number; source: Source | null }> => {
    const source = (passage.sourceID && sources.get(passage.sourceID)) || null;
    const from = source ? `source: ${source.name} (${source.id}, ${source.url})` : 'generated answer';
    const text = `[${i + 1}] score ${passage.score.toFixed(3)}, ${from}\n${passage.content}`;
    return { text, data: { rank: i + 1, score: passage.score, source } };
  });
  // `reranked` only when the service has a reranker configured, as the API answers it
  const rest = { facts: result.facts, sources: result.sources, ...(result.reranked === undefined ? {} : { reranked: result.reranked }) };
  const { kept, left } = fittingItems(presented, rest);
  return answered(describeSearch(result, kept, left), { passages: kept.map((p) => p.data), ...rest });
}

/** Passages best first, each with the source it comes from, then facts. */
function describeSearch(result: SearchResult, passages: readonly PresentedItem<unknown>[], left: number): string {
  if (passages.length === 0) return 'Nothing in this memory matches the query (is its ingestion ready? see ingestion_status).';
  const facts = result.facts.length ? `\n\nFacts:\n${result.facts.map((fact) => `- ${fact.content}`).join('\n')}` : '';
  return `Passages, best first:\n\n${passages.map((p) => p.text).join('\n\n')}${facts}${leftOutNote(left, 'passage', 'ask for a smaller topK')}`;
}

export function registerMemoryReadTools(server: McpServer, kmem: KmemClient): void {
  server.registerTool(
    'search_memory',
    {
      title: 'Search a memory',
      description:
        'Finds the passages of a kmem memory that best answer a query, best first, each with its source (file name, id and address). ' +
        'Set facts for up to three supporting facts (graph memories), assisted for a generated answer citing the passages, after/before to limit conversation hits in time, filter to search only some files, sessions or metadata.',
      inputSchema: z.object({
        memoryID,
        query: z.string().min(1).max(4000).describe('A question or keywords'),
        topK: z.number().int().min(1).max(100).optional().describe('How many passages (1-100, default 5)'),
        facts: z.boolean().optional().describe('Also return supporting facts (default false)'),
        assisted: z.boolean().optional().describe('Answer with a generated, cited answer first when a model is configured (default false)'),
        after: z.string().optional().describe('Only conversation hits at or after this ISO 8601 time'),
        before: z.string().optional().describe('Only conversation hits before this ISO 8601 time'),
        filter: filterInput.optional(),
      }),
      annotations: READ_ONLY,
    },
    ({ filter, ...args }) => present(kmem.searchMemory({ params: { query: { ...args, ...filterParam(filter) } } }), presentSearch),
  );

  server.registerTool(
    'list_memories',
    {
      title: 'List memories',
      description:
        'Lists the memories of this kmem account (id, name, type, ingestion step), oldest first; pass nextToken for the next page.',
      inputSchema: z.object({
        memoryType: z.enum(['graph', 'vector']).optional().describe('Only graph or only vector memories'),
        limit: z.number().int().min(1).max(100).optional().describe('Memories per page (1-100, default 20)'),
        nextToken: z.string().optional().describe('The nextToken of the previous page'),
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      present(kmem.listMemories({ params: { query: { limit: 20, ...args } } }), (page) => {
        const lines = page.memories.map(
          (m) => `${m.id}: ${m.name} (${m.memoryType}, ${m.step})${m.description ? ` ${m.description}` : ''}`,
        );
        const more = page.nextToken ? `\nMore: call again with nextToken ${page.nextToken}` : '';
        // a page holds at most 100 memories of 2,000-character descriptions: it fits without trimming
        return answered(`${lines.length ? lines.join('\n') : 'No memories yet.'}${more}`, {
          memories: page.memories.map(withoutDescription),
          nextToken: page.nextToken,
        });
      }),
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory',
      description: 'Shows one memory: name, type, ingestion step, counts of files, chunks, entities, relations and facts, failed files.',
      inputSchema: z.object({ memoryID }),
      annotations: READ_ONLY,
    },
    ({ memoryID: id }) =>
      present(kmem.getMemory({ params: { path: { id } } }), ({ data }) =>
        answered(describeMemory(data), { memory: withoutDescription(data) }),
      ),
  );

  server.registerTool(
    'ingestion_status',
    {
      title: 'Ingestion status of a memory',
      description:
        'Whether what was added to a memory is searchable yet: its step (select, queued, ingesting, ready, failed; ready means every added file is searchable), counts and the files that failed with why.',
      inputSchema: z.object({ memoryID }),
      annotations: READ_ONLY,
    },
    ({ memoryID: id }) =>
      present(kmem.getMemory({ params: { path: { id } } }), ({ data }) => {
        const status = statusOf(data);
        const failures = data.failedFiles.map((f) => `\n- file ${f.fileID}: ${f.error}`).join('');
        const text = `Memory ${data.id} is ${data.step}: ${data.fileCount} file(s), ${data.chunkCount} chunk(s)${data.lastError ? `; last error: ${data.lastError}` : ''}${failures}`;
        return answered(text, status);
      }),
  );

  server.registerTool(
    'explore_entity',
    {
      title: 'Explore an entity of a graph memory',
      description:
        'Looks an entity up by name in a graph memory (best match first) and shows what the memory knows about it: aliases, relations to other entities, facts, and the passages that mention it with their file ids.',
      inputSchema: z.object({
        memoryID: memoryID.describe('A graph memory id'),
        name: z.string().min(1).max(200).describe('The name or alias of a person, place, thing or concept'),
        limit: z.number().int().min(1).max(20).optional().describe('How many matching entities (1-20, default 3)'),
      }),
      annotations: READ_ONLY,
    },
    ({ memoryID: id, name, limit }) =>
      present(kmem.findMemoryEntities({ params: { path: { id }, query: { name, limit: limit ?? 3 } } }), (found) => {
        if (found.count === 0) return answered(`No entity named like '${name}' in this memory.`, { entities: [] });
        const { kept, left } = fittingItems(found.entities.map((entity) => ({ text: describeEntity(entity), data: entityData(entity) })));
        const text = `${kept.map((entity) => entity.text).join('\n\n')}${leftOutNote(left, 'entity', 'ask for a smaller limit')}`;
        return answered(text, { entities: kept.map((entity) => entity.data) });
      }),
  );
}

function statusOf(memory: Schemas['Memory']): Record<string, unknown> {
  const { id, step, fileCount, chunkCount, entityCount, factCount, failedFiles, failedFileCount, lastError, indexVersion } = memory;
  return {
    memoryID: id,
    step,
    ready: step === 'ready',
    fileCount,
    chunkCount,
    entityCount,
    factCount,
    failedFiles,
    failedFileCount,
    lastError,
    indexVersion,
  };
}

/** A memory's fields without its description (the text carries that). */
function withoutDescription<M extends { description: string }>(memory: M): Omit<M, 'description'> {
  const { description: _description, ...rest } = memory;
  return rest;
}

/** One memory for the model: name, type, step, description, counts, and the files that failed with why. */
function describeMemory(memory: Schemas['Memory']): string {
  const { id, name, memoryType, step, description, fileCount, chunkCount, entityCount, relationCount, factCount } = memory;
  const failures = memory.failedFiles.map((f) => `\n- file ${f.fileID}: ${f.error}`).join('');
  return [
    `Memory ${id}: ${name} (${memoryType}, ${step})${description ? `\n${description}` : ''}`,
    `${fileCount} file(s), ${chunkCount} chunk(s), ${entityCount} entities, ${relationCount} relations, ${factCount} facts`,
    `${memory.failedFileCount} failed file(s)${failures}${memory.lastError ? `\nLast error: ${memory.lastError}` : ''}`,
  ].join('\n');
}

/** An entity as data: its ids, names and relations, how many facts, and the files of its passages (their text is in the answer's text). */
function entityData(entity: Schemas['Entity']) {
  const { id, name, type, aliases, relations, facts, passages } = entity;
  return { id, name, type, aliases, relations, factCount: facts.length, passages: passages.map(({ fileID }) => ({ fileID })) };
}

function describeEntity(entity: Schemas['Entity']): string {
  const relations = entity.relations.map((r) =>
    r.direction === 'incoming' ? `- ${r.target.name} ${r.relation} ${entity.name}` : `- ${entity.name} ${r.relation} ${r.target.name}`,
  );
  const facts = entity.facts.map((fact) => `- ${fact.content}`);
  const passages = entity.passages.map((p) => `- (file ${p.fileID}) ${p.content}`);
  return [
    `${entity.name} (${entity.type}), also: ${entity.aliases.join(', ') || '-'}`,
    relations.length ? `Relations:\n${relations.join('\n')}` : 'Relations: none',
    facts.length ? `Facts:\n${facts.join('\n')}` : '',
    passages.length ? `Passages:\n${passages.join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
