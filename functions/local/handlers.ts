/** The deployed handlers, by endpoint group, as the local runtime serves them: all over the same deps. */
import type { HttpHandler } from '../http/handler';
import type { Group } from '../http/route-spec';
import { createFilesHandler } from '../files/handler';
import { createMcpHandler } from '../mcp/handler';
import { createMemoriesHandler } from '../memories/handler';
import { createMessagesHandler } from '../messages/handler';
import { createRetrievalHandler } from '../retrieval/handler';
import { createMetaHandler } from '../meta/handler';
import { createSessionsHandler } from '../sessions/handler';
import { createUsersHandler } from '../users/handler';
import type { LocalDeps } from './compose';

export function httpHandlers(deps: LocalDeps): Record<Group, HttpHandler> {
  const composed = (): LocalDeps => deps;
  return {
    meta: createMetaHandler(composed),
    users: createUsersHandler(composed),
    sessions: createSessionsHandler(composed),
    messages: createMessagesHandler(composed),
    files: createFilesHandler(composed),
    memories: createMemoriesHandler(composed),
    retrieval: createRetrievalHandler(composed),
    mcp: createMcpHandler(composed),
  };
}
