import { createHttpHandler } from '../http/handler';
import { retrievalRoutes } from './routes';

export const handler = createHttpHandler(retrievalRoutes);
