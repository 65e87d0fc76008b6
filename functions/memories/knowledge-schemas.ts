/** The memories group's contract, the knowledge of graph memories: the graph itself, entities, user profiles. */
import { z } from 'zod';
import { instant, issuedIdParams, pageQueryUpTo, queryInteger, success } from '../http/common-schemas';
import { route } from '../http/route-spec';

/** Nodes per page of GET /memories/graph/{id}: a 10,000-node graph comes in two requests. */
const GRAPH_PAGE_MAX = 5000;

/** A fact with when it held: stated at `validFrom` by `sourceID`, replaced at `validTo` (null: still holds). */
const datedFactSchema = z
  .object({
    content: z.string(),
    validFrom: z.string().nullable().meta({ description: "When its source stated it: the message's time, else the file's" }),
    validTo: z.string().nullable().meta({ description: 'When a later source replaced it; null while it holds' }),
    sourceID: z.string().nullable().meta({ description: 'The message (or file) that stated it' }),
  })
  .meta({ id: 'DatedFact' });

const profileEntrySchema = z
  .object({
    content: z.string().meta({ description: 'The sentence that said it' }),
    validFrom: z.string(),
    validTo: z.string().nullable(),
    sourceID: z.string().meta({ description: 'The message that said it' }),
  })
  .meta({ id: 'ProfileEntry' });

const entitySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    aliases: z.array(z.string()),
    relations: z.array(
      z.object({
        relation: z.string(),
        direction: z.enum(['outgoing', 'incoming']),
        target: z.object({ id: z.string(), name: z.string() }),
        validFrom: z.string().nullable().meta({ description: 'When it was first stated (null: not known, as for a co-occurrence)' }),
        validTo: z.string().nullable().meta({ description: 'When a later statement replaced it; null while it holds' }),
      }),
    ),
    facts: z.array(datedFactSchema),
    passages: z.array(z.object({ content: z.string(), fileID: z.string() })),
  })
  .meta({
    id: 'Entity',
    description:
      'An entity of a graph memory: its aliases, relations and facts (latest first, with validity, including what is no longer true) and the passages that mention it most',
  });

export const memoryKnowledgeApi = {
  graph: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/graph/{id}',
    operationId: 'getMemoryGraph',
    summary: "A graph memory's knowledge graph: a page of nodes with the edges that start at them",
    params: issuedIdParams,
    query: pageQueryUpTo(GRAPH_PAGE_MAX),
    response: z.object({
      status: z.literal('success'),
      nodes: z.array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            type: z.string(),
            aliases: z.array(z.string()),
            mentions: z.number().int(),
            support: z.number().int(),
          })
          .meta({ id: 'GraphNode' }),
      ),
      edges: z.array(
        z
          .object({
            id: z.string(),
            source: z.string(),
            target: z.string(),
            predicate: z.string(),
            kind: z.string(),
            weight: z.number(),
            support: z.number().int(),
            // a dated relation's validity, as on GET /memories/entities/{id} (decisions.md); absent on undated ones
            validFrom: z.string().optional(),
            validTo: z.string().nullable().optional(),
          })
          .meta({ id: 'GraphEdge' }),
      ),
      count: z.number().int().min(0),
      nextToken: z.string().nullable(),
      previousToken: z.string().nullable(),
    }),
    errors: [400, 401, 403, 404, 500],
  }),
  entities: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/entities/{id}',
    operationId: 'findMemoryEntities',
    summary: "A graph memory's entities matching a name, best first, with their relations, facts and passages",
    params: issuedIdParams,
    query: z.object({ name: z.string().trim().min(1).max(200), limit: queryInteger(1, 100).optional().default(10) }),
    response: z.object({ status: z.literal('success'), entities: z.array(entitySchema), count: z.number().int().min(0) }),
    errors: [400, 401, 403, 404, 500],
  }),
  profile: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/profile/{id}',
    operationId: 'getMemoryProfile',
    summary: "What a graph memory holding a customer user's sessions knows of them: preferences and facts, current first",
    params: issuedIdParams,
    query: z.object({
      customerUserID: z
        .string()
        .min(1)
        .max(256)
        .meta({ description: "The customer user, as their sessions' and messages' customerUserID" }),
      asOf: instant.optional().meta({ description: 'The profile as it stood at this instant (ISO 8601; default now)' }),
    }),
    response: success(
      z
        .object({ customerUserID: z.string(), preferences: z.array(profileEntrySchema), facts: z.array(profileEntrySchema) })
        .meta({ id: 'UserProfile' }),
    ),
    errors: [400, 401, 403, 404, 500],
  }),
};
