/** test/support/logger-context.ts: a logger that served an invocation names no function once told to forget it. */
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../../functions/local/lambda-context';
import { forgetLambdaContext } from '../../support/logger-context';

/** The JSON lines the logger writes while `log` runs (a warning goes to stderr). */
function linesOf(log: () => void): Record<string, unknown>[] {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    log();
  } finally {
    spy.mockRestore();
  }
  return written.flatMap((text) => text.split('\n').filter((line) => line.trim() !== '')).map((line) => JSON.parse(line));
}

describe('forgetLambdaContext', () => {
  it("takes an earlier invocation's function, ARN and request id off the logger's lines", () => {
    const logger = new Logger({ serviceName: 'kmem-test', logLevel: 'WARN' });
    logger.addContext(lambdaContext('mcp', 'req-earlier-file'));
    const [during] = linesOf(() => logger.warn('inside the earlier invocation'));
    expect(during).toMatchObject({ function_name: 'kmem-local-mcp', function_request_id: 'req-earlier-file' });

    forgetLambdaContext(logger);
    const [after] = linesOf(() => logger.warn('a later file, outside any invocation'));
    expect(after).toMatchObject({ message: 'a later file, outside any invocation', service: 'kmem-test' });
    for (const field of ['function_name', 'function_arn', 'function_request_id', 'function_memory_size']) {
      expect(after).not.toHaveProperty(field);
    }
  });
});
