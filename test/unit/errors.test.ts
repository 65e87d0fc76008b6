import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../functions/config';
import { BadRequestError, ConflictError, InternalError, KmemError, RateLimitedError, StoredItemError } from '../../functions/core/errors';
import { FileProcessingError, RefusedFileError } from '../../functions/core/ingest/ports';
import { ExtractionError } from '../../functions/adapters/extract/errors';
import { FetchError } from '../../functions/adapters/web/errors';
import { toWire } from '../../functions/http/wire-errors';

const ROOT = join(__dirname, '../../functions');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const context = { shape: 'status' as const, list: false, requestId: 'req-1' };

describe('the error tree', () => {
  it('has one root: no error class of the service but KmemError extends Error directly (the engine imports nothing of it)', () => {
    // the local S3 Vectors stand-in answers AWS's error codes, not kmem's: its errors are that protocol's
    const outside = ['engine/', 'local/s3vectors-double/'];
    const strays = sources(ROOT)
      .filter((path) => !outside.some((folder) => relative(ROOT, path).startsWith(folder)))
      .flatMap((path) =>
        [...readFileSync(path, 'utf8').matchAll(/class (\w+) extends (Error|TypeError|RangeError)\b/g)].map(
          (m) => `${relative(ROOT, path)}: ${m[1]}`,
        ),
      );
    expect(strays).toEqual(['core/errors.ts: KmemError']);
  });

  it('puts the worker and adapter failures under InternalError, keeping their names', () => {
    const errors = [
      new ConflictError('condition failed'),
      new StoredItemError('bad item'),
      new ConfigError('invalid configuration'),
      new RefusedFileError('too many pages'),
      new ExtractionError('the PDF is encrypted'),
      new FetchError('timeout', 'https://x.test timed out', { url: 'https://x.test' }),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(KmemError);
      expect(error).toBeInstanceOf(InternalError);
      expect(error.kind).toBe('internal');
    }
    expect(errors.map((error) => error.name)).toEqual([
      'ConflictError',
      'StoredItemError',
      'ConfigError',
      'RefusedFileError',
      'ExtractionError',
      'FetchError',
    ]);
    expect(new RefusedFileError('x')).toBeInstanceOf(FileProcessingError);
  });

  it('maps every kind to the wire in one place: internal ones with a generic message and no data', () => {
    const internal = toWire(new ConflictError('condition failed on A#secret'), context);
    expect(internal.statusCode).toBe(500);
    expect(internal.body).not.toContain('secret');
    expect(JSON.parse(internal.body)).toEqual({ error: 'internal error; quote request id req-1 when reporting it', status: 'error' });

    const bad = toWire(BadRequestError.forField('name', 'is required'), context);
    expect([bad.statusCode, JSON.parse(bad.body)]).toEqual([400, { error: 'name: is required', status: 'bad_request' }]);

    const limited = toWire(new RateLimitedError('slow down', { data: { retryAfterSeconds: 7 } }), context);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers?.['retry-after']).toBe('7');
  });
});
