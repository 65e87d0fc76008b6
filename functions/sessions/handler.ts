import { createHttpHandler } from '../http/handler';
import { sessionRoutes } from './routes';

export const handler = createHttpHandler(sessionRoutes);
