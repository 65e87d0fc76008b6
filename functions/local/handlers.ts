/** The deployed handlers, by endpoint group, as the local runtime serves them. */
import type { HttpHandler } from '../http/handler';
import type { Group } from '../http/route-spec';
import { handler as files } from '../files/handler';
import { handler as mcp } from '../mcp/handler';
import { handler as memories } from '../memories/handler';
import { handler as messages } from '../messages/handler';
import { handler as retrieval } from '../retrieval/handler';
import { handler as meta } from '../meta/handler';
import { handler as sessions } from '../sessions/handler';
import { handler as users } from '../users/handler';

export const httpHandlers: Partial<Record<Group, HttpHandler>> = { meta, users, sessions, messages, files, memories, retrieval, mcp };
