/** The retrieval group: GET /memory/ calls one use case and answers the retrieval result. */
import type { Container } from '../adapters/container';
import { type RetrievalIndexing, withRetrievalIndexing } from '../adapters/indexing';
import { answerGeneratorFromSettings } from '../adapters/providers/answer-generator-from-settings';
import { once } from '../adapters/providers/once';
import { rerankerFromSettings } from '../adapters/providers/reranker-from-settings';
import { queryMemory, type QueryMemoryDeps } from '../core/use-cases/query-memory';
import type { RetrievalResult } from '../core/use-cases/retrieve-memory';
import { bind, type BoundRoute } from '../http/handler';
import { fittingWireHead } from '../http/response-budget';
import { recordAnswer } from './answer-telemetry';
import { recordRerank } from './rerank-telemetry';
import { retrievalApi } from './schemas';

/** The retrieval function's deps: the container, the index cache and embedder, the answer model and the reranker. */
export type RetrievalRouteDeps = Container & RetrievalIndexing & Pick<QueryMemoryDeps, 'answers' | 'reranking'>;

/** Adds to a container what retrieval needs, made from its settings (once per container: the handler keeps them). */
export function withRetrieval<D extends Container>(base: D): D & RetrievalRouteDeps {
  return {
    ...withRetrievalIndexing(base),
    answers: { generator: once(() => answerGeneratorFromSettings(base.config.answerModel, base.config)) },
    reranking: { reranker: once(() => rerankerFromSettings(base.config.reranker, base.config)), record: recordRerank },
  };
}

/** A passage on the wire: its source's id as `sourceID`. */
const presentPassage = ({ sourceId, ...passage }: RetrievalResult['payload'][number]) =>
  sourceId === undefined ? passage : { ...passage, sourceID: sourceId };

export const retrievalRoutes = (deps: RetrievalRouteDeps): BoundRoute[] => [
  bind(retrievalApi.retrieve, async ({ query: { memoryID, ...request } }, { accountId }) => {
    const { retrieval, report } = await queryMemory(deps, accountId, { ...request, memoryId: memoryID });
    if (report) recordAnswer(report);
    // passages are best first: a payload too large for one answer drops its weakest (never in practice: chunks are short)
    const payload = fittingWireHead(retrieval.payload.map(presentPassage));
    const facts = retrieval.facts.map(({ sourceId, ...fact }) => ({ ...fact, sourceID: sourceId }));
    return { body: { status: 'success', ...retrieval, payload, facts } };
  }),
];
