/** The retrieval function: its routes over deps composed once, on its first request. */
import { createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { type RetrievalRouteDeps, retrievalRoutes, withRetrieval } from './routes';
import { retrievalApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createRetrievalHandler = (deps: () => RetrievalRouteDeps): HttpHandler =>
  createHttpHandler({ api: retrievalApi, deps, routes: retrievalRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.retrieval`), SQS for work. */
export const handler = createRetrievalHandler(() => withRetrieval(createContainer(functionConfig('retrieval'))));
