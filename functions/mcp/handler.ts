/** The MCP function: its routes over deps composed once, on its first request. */
import { type Container, createContainer } from '../adapters/container';
import { functionConfig } from '../config';
import { createHttpHandler, type HttpHandler } from '../http/handler';
import { mcpRoutes } from './routes';
import { mcpApi } from './schemas';

/** The handler over `deps` (the local runtime hands the deps it composed for every handler). */
export const createMcpHandler = (deps: () => Container): HttpHandler => createHttpHandler({ api: mcpApi, deps, routes: mcpRoutes });

/** The deployed function: deps from its own settings (`FUNCTION_SETTINGS.mcp`), SQS for work. */
export const handler = createMcpHandler(() => createContainer(functionConfig('mcp')));
