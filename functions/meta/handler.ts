import { createHttpHandler } from '../http/handler';
import { metaRoutes } from './routes';

export const handler = createHttpHandler(metaRoutes);
