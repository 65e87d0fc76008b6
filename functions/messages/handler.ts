import { createHttpHandler } from '../http/handler';
import { messageRoutes } from './routes';

export const handler = createHttpHandler(messageRoutes);
