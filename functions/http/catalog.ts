/** Every route of the API, by group. Handlers, the local router, the stack and the OpenAPI document read it. */
import { filesApi } from '../files/schemas';
import { mcpApi } from '../mcp/schemas';
import { memoriesApi } from '../memories/schemas';
import { messagesApi } from '../messages/schemas';
import { retrievalApi } from '../retrieval/schemas';
import { metaApi } from '../meta/schemas';
import { sessionsApi } from '../sessions/schemas';
import { usersApi } from '../users/schemas';
import { type Group, type RouteSpec, specsOf } from './route-spec';

export const API_VERSION = '1.0.0';

export const catalog: readonly RouteSpec[] = [
  metaApi,
  usersApi,
  sessionsApi,
  messagesApi,
  filesApi,
  memoriesApi,
  retrievalApi,
  mcpApi,
].flatMap(specsOf);

export const groups = (): Group[] => [...new Set(catalog.map((spec) => spec.group))];
