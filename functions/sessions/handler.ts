/** The sessions function: its routes over deps composed once, on its first request. */
import { type Container, createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { sessionRoutes } from './routes';
import { sessionsApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createSessionsHandler = (deps: () => Container): HttpHandler =>
  createHttpHandler({ api: sessionsApi, deps, routes: sessionRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.sessions`), SQS for work. */
export const handler = createSessionsHandler(() => createContainer(functionConfig('sessions')));
