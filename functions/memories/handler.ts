import { createHttpHandler } from '../http/handler';
import { memoryRoutes } from './routes';

export const handler = createHttpHandler(memoryRoutes);
