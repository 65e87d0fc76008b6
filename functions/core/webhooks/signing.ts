/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256>` of
 * `<id>.<timestamp>.<payload>`, keyed by the base64-decoded secret (`whsec_<base64>`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const VERSION = 'v1';

/** How far a signature's timestamp may be from now, either way, before verification refuses it. */
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** What is signed: the message id, the Unix time in seconds and the exact body sent. */
export interface SignedContent {
  /** `whsec_<base64>`, or the bare base64 key. */
  secret: string;
  id: string;
  timestamp: number;
  payload: string;
}

/** The value of the `webhook-signature` header for this content: `v1,<base64 signature>`. */
export function signWebhook(content: SignedContent): string {
  return `${VERSION},${signatureOf(content).toString('base64')}`;
}

/**
 * Checks a `webhook-signature` header (one or more space-separated `v1,<sig>` entries) in constant time,
 * and that the timestamp is within `toleranceSeconds` of `now` (seconds; defaults to the clock).
 */
export function verifyWebhook(content: SignedContent & { signature: string; now?: number; toleranceSeconds?: number }): boolean {
  const now = content.now ?? Math.floor(Date.now() / 1000);
  const tolerance = content.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isInteger(content.timestamp) || Math.abs(now - content.timestamp) > tolerance) return false;
  // Compares the base64 text, not decoded bytes, so no second spelling of a signature is accepted.
  const expected = Buffer.from(signatureOf(content).toString('base64'), 'utf8');
  return content.signature.split(' ').some((entry) => {
    const [version, encoded] = entry.split(',', 2);
    if (version !== VERSION || !encoded) return false;
    const given = Buffer.from(encoded, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function signatureOf(content: SignedContent): Buffer {
  if (!Number.isInteger(content.timestamp)) throw new Error('webhook timestamp must be whole seconds');
  return createHmac('sha256', secretKey(content.secret)).update(`${content.id}.${content.timestamp}.${content.payload}`, 'utf8').digest();
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}
