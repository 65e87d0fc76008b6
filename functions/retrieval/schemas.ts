/** The retrieval group's contract: `GET /memory/` (errors are `{detail}` bodies). */
import { z } from 'zod';
import { instant, issuedId, queryFlag, topKQuery } from '../http/common-schemas';
import { route } from '../http/route-spec';
import { filterQuery } from '../http/search-filter';

const retrieveQuery = z.object({
  memoryID: issuedId,
  query: z.string().min(1).max(4000),
  assisted: queryFlag.optional().default(false),
  facts: queryFlag.optional().default(false),
  topK: topKQuery(5),
  after: instant.optional(),
  before: instant.optional(),
  filter: filterQuery.optional(),
  asOf: instant.optional().meta({ description: 'Facts as they stood at this instant (ISO 8601; default now)' }),
});

/** A fact with when it held: stated at `validFrom` by `sourceID`, replaced at `validTo` (null: still holds). */
const datedFact = z
  .object({
    content: z.string(),
    validFrom: z.string().nullable().meta({ description: "When its source stated it: the message's time, else the file's" }),
    validTo: z.string().nullable().meta({ description: 'When a later source replaced it; null while it holds' }),
    sourceID: z.string().nullable().meta({ description: 'The message (or file) that stated it' }),
  })
  .meta({ id: 'Fact' });

export const retrievalApi = {
  retrieve: route({
    group: 'retrieval',
    method: 'GET',
    path: '/memory',
    operationId: 'searchMemory',
    summary: 'Query a memory: the best passages, optionally three supporting facts, and their sources',
    errorShape: 'detail',
    query: retrieveQuery,
    response: z
      .object({
        status: z.literal('success'),
        payload: z.array(
          z
            .object({
              content: z.string(),
              score: z.number(),
              sourceID: z
                .string()
                .optional()
                .meta({ description: 'The id of the entry of `sources` this passage comes from (absent on a generated answer)' }),
            })
            .meta({ id: 'Passage' }),
        ),
        facts: z.array(datedFact),
        sources: z.array(
          z
            .object({ id: z.string(), name: z.string(), url: z.string(), score: z.number() })
            .meta({ id: 'Source', description: 'A file (or session) behind the passages, best first, with an address to fetch it' }),
        ),
        reranked: z.boolean().optional().meta({
          description:
            'Present when the service has a reranker configured: true when it ordered the passages; false when it did not (it failed, or nothing matched), the fused order then stands',
        }),
      })
      .meta({ id: 'SearchResult' }),
    errors: [400, 401, 403, 404, 500],
  }),
};
