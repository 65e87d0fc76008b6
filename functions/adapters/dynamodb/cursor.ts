/**
 * Page tokens: a position in a listing, sealed with AES-256-GCM so a client can neither read the table
 * keys inside nor forge or alter a token. Each token is bound to the account and to the listing (its
 * index, partition and filters), so a token from another account or another listing is refused.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { BadRequestError } from '../../core/errors';

export type Direction = 'next' | 'previous';

/** The exclusive boundary of the next query: the table and index keys of the last item seen. */
export type Position = Record<string, string>;

interface Sealed {
  /** Binding: hash of account + listing scope. */
  b: string;
  d: Direction;
  p: Position;
}

const VERSION = 'v1';

export class CursorSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('cursor key must be 32 bytes');
  }

  seal(scope: string, direction: Direction, position: Position): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = JSON.stringify({ b: bindingOf(scope), d: direction, p: position } satisfies Sealed);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Opens a token sent back as `field`; anything forged, altered or foreign is a bad_request. */
  open(field: string, token: string, scope: string, direction: Direction): Position {
    const sealed = this.decrypt(token);
    if (!sealed || sealed.b !== bindingOf(scope) || sealed.d !== direction) {
      throw BadRequestError.forField(field, 'is not a valid page token for this listing');
    }
    return sealed.p;
  }

  private decrypt(token: string): Sealed | undefined {
    const [version, payload] = token.split('.');
    if (version !== VERSION || !payload) return undefined;
    const raw = Buffer.from(payload, 'base64url');
    if (raw.length < 29) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as Sealed;
    } catch {
      return undefined; // authentication failed: forged or altered
    }
  }
}

function bindingOf(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 22);
}
