/** The messages function: its routes over deps composed once, on its first request. */
import { createContainer } from '../adapters/container';
import { withRetrievalIndexing } from '../adapters/indexing';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { type MessagesDeps, messageRoutes } from './routes';
import { messagesApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createMessagesHandler = (deps: () => MessagesDeps): HttpHandler =>
  createHttpHandler({ api: messagesApi, deps, routes: messageRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.messages`), SQS for work. */
export const handler = createMessagesHandler(() => withRetrievalIndexing(createContainer(functionConfig('messages'))));
