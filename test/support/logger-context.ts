/**
 * Puts a Powertools logger back to naming no Lambda function. Powertools keeps the last invocation's
 * context (function name, ARN, memory size, request id) on the logger instance and has no call that removes
 * it, so a line logged outside an invocation carries the last one's. Where several files share one process
 * (the end-to-end tier, `vitest.config.ts`), that was another file's: a line of test/service/request-counter.test.ts
 * named `kmem-local-mcp`, the function of a runtime an earlier file had started in that process. A context
 * with none of those fields leaves them out of the line (only `cold_start: false` stays, as after any invocation).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** A context without a function: every field Powertools prints from it is absent. */
const NO_INVOCATION = {} as Context;

export function forgetLambdaContext(logger: Logger): void {
  logger.addContext(NO_INVOCATION);
}
