/**
 * The ids of a restore: every file, page, session and message of an archive gets a new id, and every
 * string of the archive that names one (a chunk's source `session:<id>`, a chunk id `<fileId>:<n>` or
 * `msg:<id>`, the graph's per-source records) is rewritten to the new one. Ids are derived from the
 * restored memory's id and the old id, so a redelivered restore makes the same ones.
 */
import { createHash } from 'node:crypto';

const PREFIXED = /^(session|msg):(.+)$/;
const NUMBERED = /^(.+):(\d+)$/;

export class IdMap {
  private readonly ids = new Map<string, string>();

  constructor(private readonly salt: string) {}

  /** The new id of an archive id (made on first sight, the same for the same memory and old id). */
  add(old: string): string {
    let found = this.ids.get(old);
    if (!found) {
      found = derivedUuid(`${this.salt}\u0000${old}`);
      this.ids.set(old, found);
    }
    return found;
  }

  /** The new form of a string of the archive: an id, a source id or a chunk id; anything else as it is. */
  rename(value: string): string {
    const exact = this.ids.get(value);
    if (exact) return exact;
    const prefixed = PREFIXED.exec(value);
    if (prefixed && this.ids.has(prefixed[2] ?? '')) return `${prefixed[1]}:${this.ids.get(prefixed[2] ?? '')}`;
    const numbered = NUMBERED.exec(value);
    if (numbered && this.ids.has(numbered[1] ?? '')) return `${this.ids.get(numbered[1] ?? '')}:${numbered[2]}`;
    return value;
  }

  /** A JSON value with every string renamed (keys of objects too). */
  renameAll<T>(value: T): T {
    return this.walk(value) as T;
  }

  /** The new ids made so far. */
  made(): string[] {
    return [...this.ids.values()];
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.rename(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.rename(key), this.walk(item)]));
    }
    return value;
  }
}

/** A UUID-shaped id (version 8: custom) from a SHA-256 of `seed`. */
function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
