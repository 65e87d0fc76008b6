/** The health and OpenAPI function: its routes over deps composed once, on its first request. */
import { type Container, createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { metaRoutes } from './routes';
import { metaApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createMetaHandler = (deps: () => Container): HttpHandler => createHttpHandler({ api: metaApi, deps, routes: metaRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.meta`), SQS for work. */
export const handler = createMetaHandler(() => createContainer(functionConfig('meta')));
