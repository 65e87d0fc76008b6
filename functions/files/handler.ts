import { createHttpHandler } from '../http/handler';
import { fileRoutes } from './routes';

export const handler = createHttpHandler(fileRoutes);
