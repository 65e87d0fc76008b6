/** The users function: its routes over deps composed once, on its first request. */
import { type Container, createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { userRoutes } from './routes';
import { usersApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createUsersHandler = (deps: () => Container): HttpHandler => createHttpHandler({ api: usersApi, deps, routes: userRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.users`), SQS for work. */
export const handler = createUsersHandler(() => createContainer(functionConfig('users')));
