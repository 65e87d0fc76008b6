/**
 * GET /memories/entities/{id}: a graph memory's entities matching a name, best first, each with its
 * aliases (as written), its relations (strongest link first, named by their predicate; an edge stored
 * under the other entity says `direction: incoming`), the facts it takes part in and the passages that
 * mention it most. Reads the published graph segment and chunk records (cached per index version) and
 * the graph's table items; files removed from the memory, detached or deleted sessions and deleted messages
 * contribute no fact or passage.
 *
 * Facts and relations carry their validity (`validFrom`, `validTo`: null while they hold) and list what
 * is no longer true too, latest first. A fact of a graph built before validity starts at its source's
 * time (the message's, else the file's creation).
 */
import { loadedGraph } from './current-version';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { BadRequestError } from '../errors';
import { type DatedFact, datedFacts, matchEntitiesByName, mentioningChunks, neighboursOf } from '../../engine';
import type { FileStore } from '../files/ports';
import type { GraphEdge, GraphNode } from '../graph-items';
import { isExcludedChunk, type Memory, messageChunkId } from '../model';
import type { GraphItemStore, MemoryStore } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import type { IndexCache, LoadedGraph } from '../stored-index/index-cache';
import { getMemory } from './memories';

export interface EntityDeps {
  memories: MemoryStore;
  graphItems: GraphItemStore;
  files: Pick<FileStore, 'get'>;
  indexes: Pick<IndexCache, 'loadGraph'>;
}

interface EntityRelation {
  relation: string;
  direction: 'outgoing' | 'incoming';
  target: { id: string; name: string };
  validFrom: string | null;
  validTo: string | null;
}

/** A fact with when it held and what stated it (see DatedFactView in retrieve-memory.ts). */
interface EntityFact {
  content: string;
  validFrom: string | null;
  validTo: string | null;
  sourceId: string | null;
}

export interface EntityView {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  relations: EntityRelation[];
  facts: EntityFact[];
  passages: Array<{ content: string; fileId: string }>;
}

/** Per entity: relations, facts and passages listed at most. */
const ENTITY_VIEW_LIMITS = { relations: 20, facts: 10, passages: 3 } as const;

const COOCCURS = 'co-occurs with';

export async function lookUpEntities(
  deps: EntityDeps,
  accountId: string,
  id: string,
  request: { name: string; limit: number },
): Promise<EntityView[]> {
  const read = await getMemory(deps, accountId, id);
  if (read.memoryType !== 'graph') throw BadRequestError.forField('id', `memory '${id}' is a vector memory; it has no graph`);
  const { memory, loaded } = await loadedGraph(deps, accountId, read);
  if (!loaded) return [];
  const mentioned = stillMentioned(memory, loaded);
  const matches = matchEntitiesByName(loaded.graph, request.name, request.limit, mentioned);
  const ids = matches.map((match) => loaded.graph.entityIds[match.entity] ?? '');
  const nodes = new Map((await deps.graphItems.getNodes(accountId, id, ids)).map((node) => [node.id, node]));
  const reader = { deps, accountId, memory, loaded, nodes, mentioned };
  return mapConcurrently(matches, STORE_CONCURRENCY, (match) => viewOf(reader, match.entity));
}

/**
 * Whether some chunk still in the memory mentions the entity: one known only from removed files, detached
 * or deleted sessions or deleted messages stays in the published graph until the next version, but is not shown.
 */
function stillMentioned(memory: Memory, loaded: LoadedGraph): (entity: number) => boolean {
  if (memory.excludedFileIds.length === 0) return () => true;
  const kept = keptChunk(memory, loaded);
  return (entity) => mentioningChunks(loaded.graph, entity).some((chunkId) => kept(chunkId) !== undefined);
}

/** The chunk of this id unless the memory's exclusions hide it (its source removed, or its message deleted). */
function keptChunk(memory: Memory, loaded: LoadedGraph): (chunkId: string) => StoredChunk | undefined {
  const excluded = new Set(memory.excludedFileIds);
  return (chunkId) => {
    const chunk = loaded.chunks.get(chunkId);
    return chunk !== undefined && !isExcludedChunk(excluded, chunk) ? chunk : undefined;
  };
}

/** Whether a fact may be shown: its chunk is kept, or (a closed fact, stored without chunk) its file and message are not excluded. */
function factKept(memory: Memory, kept: (chunkId: string) => StoredChunk | undefined): (fact: DatedFact) => boolean {
  const excluded = new Set(memory.excludedFileIds);
  return (fact) =>
    fact.chunkId === ''
      ? !excluded.has(fact.fileId ?? '') && !(fact.sourceId && excluded.has(messageChunkId(fact.sourceId)))
      : kept(fact.chunkId) !== undefined;
}

interface Reader {
  deps: EntityDeps;
  accountId: string;
  memory: Memory;
  loaded: LoadedGraph;
  nodes: ReadonlyMap<string, GraphNode>;
  /** Whether a chunk the memory still shows mentions the entity (a relation's target must be). */
  mentioned: (entity: number) => boolean;
}

async function viewOf(reader: Reader, entity: number): Promise<EntityView> {
  const { graph } = reader.loaded;
  const id = graph.entityIds[entity] ?? '';
  const name = graph.names[entity] ?? '';
  const kept = keptChunk(reader.memory, reader.loaded);
  const shown = factKept(reader.memory, kept);
  const seen = new Set<string>();
  const facts = latestFirst(
    datedFacts(graph).filter((fact) => {
      const about = fact.subject === entity || fact.object === entity || fact.subjectId === id || fact.objectId === id;
      return about && shown(fact);
    }),
  ).filter((fact) => !seen.has(`${fact.content}\u0000${fact.validTo}`) && seen.add(`${fact.content}\u0000${fact.validTo}`));
  const passages = mentioningChunks(graph, entity).flatMap((chunkId) => {
    const chunk = kept(chunkId);
    return chunk ? [{ content: chunk.text, fileId: chunk.pageId ?? chunk.fileId }] : [];
  });
  return {
    id,
    name,
    type: graph.types[entity] ?? '',
    aliases: reader.nodes.get(id)?.aliases ?? [name],
    relations: latestFirst(await relationsOf(reader, entity)),
    facts: await mapConcurrently(facts.slice(0, ENTITY_VIEW_LIMITS.facts), STORE_CONCURRENCY, (fact) => factView(reader, fact)),
    passages: passages.slice(0, ENTITY_VIEW_LIMITS.passages),
  };
}

/** The entity's strongest links, each named by the stored edge's predicate (in either direction). */
async function relationsOf(reader: Reader, entity: number): Promise<EntityRelation[]> {
  const { graph } = reader.loaded;
  const id = graph.entityIds[entity] ?? '';
  const neighbours = neighboursOf(graph, entity, ENTITY_VIEW_LIMITS.relations).filter(reader.mentioned);
  const outgoing = await edgesOf(reader, id);
  const relations: EntityRelation[] = [];
  for (const neighbour of neighbours) {
    const other = graph.entityIds[neighbour] ?? '';
    const target = { id: other, name: graph.names[neighbour] ?? '' };
    const out = outgoing.filter((edge) => edge.target === other);
    const incoming = out.length > 0 ? [] : (await edgesOf(reader, other)).filter((edge) => edge.target === id);
    const held = (edge: GraphEdge) => ({ validFrom: edge.validFrom || null, validTo: edge.validTo ?? null });
    for (const edge of out) relations.push({ relation: edge.predicate, direction: 'outgoing', target, ...held(edge) });
    for (const edge of incoming) relations.push({ relation: edge.predicate, direction: 'incoming', target, ...held(edge) });
    if (out.length + incoming.length === 0)
      relations.push({ relation: COOCCURS, direction: 'outgoing', target, validFrom: null, validTo: null });
  }
  return dedupe(relations).slice(0, ENTITY_VIEW_LIMITS.relations);
}

function edgesOf(reader: Reader, source: string): Promise<GraphEdge[]> {
  return reader.deps.graphItems.edgesFrom(reader.accountId, reader.memory.id, source, source);
}

/** Latest stated first (a stable sort: equal times keep their order); unknown times last. */
function latestFirst<T extends { validFrom: string | null }>(items: T[]): T[] {
  return [...items].sort((a, b) => (b.validFrom ?? '').localeCompare(a.validFrom ?? ''));
}

/** One fact per sentence (its latest statement), with a start from its source when the graph had none. */
async function factView(reader: Reader, fact: DatedFact): Promise<EntityFact> {
  const chunk = fact.chunkId === '' ? undefined : reader.loaded.chunks.get(fact.chunkId);
  const sourceId = fact.sourceId ?? chunk?.message?.id ?? chunk?.pageId ?? chunk?.fileId ?? fact.fileId ?? null;
  const view = { content: fact.content, validTo: fact.validTo, sourceId };
  if (fact.validFrom !== '') return { ...view, validFrom: fact.validFrom };
  if (chunk?.message) return { ...view, validFrom: new Date(chunk.message.createdAt).toISOString() };
  const fileId = chunk?.pageId ?? chunk?.fileId ?? fact.fileId;
  const file = fileId === undefined ? undefined : await reader.deps.files.get(reader.accountId, fileId);
  return { ...view, validFrom: file?.createdAt ?? null };
}

function dedupe(relations: EntityRelation[]): EntityRelation[] {
  const seen = new Set<string>();
  return relations.filter((relation) => {
    const key = `${relation.direction}\u0000${relation.relation}\u0000${relation.target.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
