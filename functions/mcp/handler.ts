import { createHttpHandler } from '../http/handler';
import { mcpRoutes } from './routes';

export const handler = createHttpHandler(mcpRoutes);
