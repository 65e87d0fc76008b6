/** The memories function: its routes over deps composed once, on its first request. */
import { createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { type MemoriesDeps, memoryRoutes, withEntityIndexes } from './routes';
import { memoriesApi } from './schemas';
import { portabilityApi } from './portability-schemas';
import { portabilityRoutes } from './portability-routes';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createMemoriesHandler = (deps: () => MemoriesDeps): HttpHandler =>
  createHttpHandler({
    api: { ...memoriesApi, ...portabilityApi },
    deps,
    routes: (bound: MemoriesDeps) => [...memoryRoutes(bound), ...portabilityRoutes(bound)],
  });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.memories`), SQS for work. */
export const handler = createMemoriesHandler(() => withEntityIndexes(createContainer(functionConfig('memories'))));
