/**
 * Webhook requests: one POST to the addresses the address guard checked (never a second DNS lookup, so a
 * rebinding name cannot turn it toward an internal address), a hard timeout, redirects answered rather
 * than followed.
 */
import type { GuardedAddress } from '../../core/net/address-guard';
import type { WebhookSender } from '../../core/webhooks/ports';
import { sendPinnedRequest } from '../web/pinned-request';

/** The WebhookSender of the service. */
export class PinnedWebhookSender implements WebhookSender {
  /**
   * POSTs and answers the status. A 3xx is answered as such: following it would skip the address guard.
   * Throws an Error describing the failure when no answer arrives in time.
   */
  async post(target: GuardedAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number }> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await sendPinnedRequest({
        url: target.url,
        addresses: target.addresses,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        method: 'POST',
        body,
        connectTimeoutMs: timeoutMs,
        signal,
      });
      // The body is not needed; dropping it frees the connection.
      response.destroy();
      return { status: response.statusCode ?? 0 };
    } catch (error) {
      throw new Error(describeFailure(error, timeoutMs), { cause: error });
    }
  }
}

/** `timed out after 200 ms`, `connection failed: ECONNREFUSED`, or the error's own message. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (error instanceof Error && error.message.includes('no connection within')) return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  if (code) return `connection failed: ${code}`;
  return error instanceof Error ? error.message : String(error);
}
