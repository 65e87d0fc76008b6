/** Webhook requests over fetch: one POST, a hard timeout, redirects answered rather than followed. */
import type { WebhookSender } from '../../core/webhooks/ports';

/** The WebhookSender of the service. */
export class FetchWebhookSender implements WebhookSender {
  /**
   * POSTs and answers the status. A 3xx is answered as such (`redirect: 'manual'`): following it would
   * skip the address guard. Throws an Error describing the failure when no answer arrives in time.
   */
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<{ status: number }> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new Error(describeFailure(error, timeoutMs), { cause: error });
    }
    // The body is not needed; dropping it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  }
}

/** `timed out after 200 ms`, `connection failed: ECONNREFUSED`, or the error's own message. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  if (code) return `connection failed: ${code}`;
  return error instanceof Error ? error.message : String(error);
}
