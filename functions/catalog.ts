/** Every route of the API, by group. Handlers, the local router, the stack and the OpenAPI document read it. */
import { filesApi } from './files/schemas';
import { mcpApi } from './mcp/schemas';
import { memoriesApi } from './memories/schemas';
import { portabilityApi } from './memories/portability-schemas';
import { messagesApi } from './messages/schemas';
import { retrievalApi } from './retrieval/schemas';
import { metaApi } from './meta/schemas';
import { sessionsApi } from './sessions/schemas';
import { usersApi } from './users/schemas';
import { type Group, type RouteSpec, specsOf } from './http/route-spec';

// Above the endpoint groups (it reads each group's schemas), so functions/http/ imports no group.
export const catalog: readonly RouteSpec[] = [
  metaApi,
  usersApi,
  sessionsApi,
  messagesApi,
  filesApi,
  memoriesApi,
  portabilityApi,
  retrievalApi,
  mcpApi,
].flatMap(specsOf);

export const groups = (): Group[] => [...new Set(catalog.map((spec) => spec.group))];
