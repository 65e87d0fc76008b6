import { createHttpHandler } from '../http/handler';
import { userRoutes } from './routes';

export const handler = createHttpHandler(userRoutes);
