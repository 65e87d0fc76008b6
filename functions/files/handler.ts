/** The files function: its routes over deps composed once, on its first request. */
import { type Container, createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { fileRoutes } from './routes';
import { filesApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createFilesHandler = (deps: () => Container): HttpHandler => createHttpHandler({ api: filesApi, deps, routes: fileRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.files`), SQS for work. */
export const handler = createFilesHandler(() => createContainer(functionConfig('files')));
