/**
 * Run before each end-to-end file, in its process (the e2e project's `setupFiles`, vitest.config.ts). The
 * files share two processes and with them the modules they imported, among them the one Powertools logger
 * of functions/observability.ts: the file starts with the logger naming no earlier file's Lambda function.
 */
import { logger } from '../../functions/observability';
import { forgetLambdaContext } from './logger-context';

forgetLambdaContext(logger);
