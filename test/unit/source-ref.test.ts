import { describe, expect, it } from 'vitest';
import { fileSource, sessionSource, sessionSourceId, sourceIdOf, sourceRefOf } from '../../functions/core/model';

describe('source references', () => {
  it('store a file by its id and a session as session:<id>, and read back what they were', () => {
    expect(sourceIdOf(fileSource('f-1'))).toBe('f-1');
    expect(sourceIdOf(sessionSource('s-1'))).toBe('session:s-1');
    expect(sessionSourceId('s-1')).toBe('session:s-1');
    expect(sourceRefOf('f-1')).toEqual({ kind: 'file', fileId: 'f-1' });
    expect(sourceRefOf('session:s-1')).toEqual({ kind: 'session', sessionId: 's-1' });
    for (const source of [fileSource('a.b:c'), sessionSource('x:y')]) expect(sourceRefOf(sourceIdOf(source))).toEqual(source);
  });
});
