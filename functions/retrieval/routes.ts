/** The retrieval group: GET /memory/ calls one use case and answers the retrieval result. */
import { type Container, container } from '../adapters/container';
import { createRetrievalIndexing, type RetrievalIndexing } from '../adapters/indexing';
import { retrieveFromMemory } from '../core/use-cases/retrieve-memory';
import { bind } from '../http/handler';
import { retrievalApi } from './schemas';

const indexingOf = new WeakMap<Container, RetrievalIndexing>();

/** The container plus the index cache and embedder, made once per container. */
function retrievalDeps(): Container & RetrievalIndexing {
  const base = container();
  let indexing = indexingOf.get(base);
  if (!indexing) {
    indexing = createRetrievalIndexing(base.config, base.objects);
    indexingOf.set(base, indexing);
  }
  return { ...base, ...indexing };
}

export const retrievalRoutes = [
  bind(retrievalApi.retrieve, async ({ query }, { accountId }) => ({
    body: { status: 'success', ...(await retrieveFromMemory(retrievalDeps(), accountId, query)) },
  })),
];
