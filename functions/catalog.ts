/**
 * Every route of the API, by group. It sits above the endpoint groups (it imports each group's schemas),
 * so functions/http/ (the plumbing every group shares) imports no group. Handlers, the local router, the
 * stack and the OpenAPI document read it.
 */
import { filesApi } from './files/schemas';
import { type Group, type RouteSpec, specsOf } from './http/route-spec';
import { mcpApi } from './mcp/schemas';
import { memoriesApi } from './memories/schemas';
import { messagesApi } from './messages/schemas';
import { metaApi } from './meta/schemas';
import { retrievalApi } from './retrieval/schemas';
import { sessionsApi } from './sessions/schemas';
import { usersApi } from './users/schemas';

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
