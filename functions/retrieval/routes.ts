/** The retrieval group: GET /memory/ calls one use case and answers the retrieval result. */
import { answerGeneratorFactory } from '../adapters/answers/factory';
import { type Container, container } from '../adapters/container';
import { type RetrievalIndexing, retrievalIndexingOf } from '../adapters/indexing';
import { queryMemory, type QueryMemoryDeps } from '../core/use-cases/query-memory';
import { bind } from '../http/handler';
import { fittingHead, wireBytes } from '../http/response-budget';
import { recordAnswer } from './answer-telemetry';
import { retrievalApi } from './schemas';

type RetrievalExtras = RetrievalIndexing & Pick<QueryMemoryDeps, 'answers'>;

const extrasOf = new WeakMap<Container, RetrievalExtras>();

/** The container plus the index cache, embedder and answer model, made once per container. */
function retrievalDeps(): Container & RetrievalExtras {
  const base = container();
  let extras = extrasOf.get(base);
  if (!extras) {
    extras = { ...retrievalIndexingOf(base), answers: { generator: answerGeneratorFactory(base.config) } };
    extrasOf.set(base, extras);
  }
  return { ...base, ...extras };
}

export const retrievalRoutes = [
  bind(retrievalApi.retrieve, async ({ query }, { accountId }) => {
    const { answer, report } = await queryMemory(retrievalDeps(), accountId, query);
    if (report) recordAnswer(report);
    // passages are best first: a payload too large for one answer drops its weakest (never in practice: chunks are short)
    return { body: { status: 'success', ...answer, payload: fittingHead(answer.payload, wireBytes) } };
  }),
];
