/** The export format's reader (manifest versions, member names) and the restore's id renaming, without stores. */
import { describe, expect, it } from 'vitest';
import { MEMBERS, memberKind, readManifest } from '../../../functions/core/portable/format';
import { IdMap } from '../../../functions/core/portable/id-map';
import { decodeVector, encodeVector } from '../../../functions/core/portable/memory-contents';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('the export format', () => {
  it('reads a version 1 manifest and fills the settings it leaves out', () => {
    const manifest = readManifest(
      MEMBERS.manifest,
      bytes({ format: 'kmem-export', version: 1, memory: { name: 'm', memoryType: 'graph', ontology: 'essays' } }),
    );
    expect(manifest.memory).toEqual({
      name: 'm',
      description: '',
      memoryType: 'graph',
      ontology: 'essays',
      chunkSize: null,
      chunkOverlap: null,
      acceleration: false,
      factExtraction: false,
      adapterRepo: '',
      adapterVersion: 0,
    });
  });

  it('refuses a foreign first member, another format, an unknown version and bad settings, naming what is wrong', () => {
    expect(() => readManifest('README.md', bytes({}))).toThrow(/not a kmem export \(its first member is 'README.md'/);
    expect(() => readManifest(MEMBERS.manifest, bytes({ format: 'other', version: 1 }))).toThrow(/format is not 'kmem-export'/);
    expect(() => readManifest(MEMBERS.manifest, bytes({ format: 'kmem-export', version: 0 }))).toThrow(
      /format version 0 is not one this kmem reads \(1\)/,
    );
    expect(() =>
      readManifest(MEMBERS.manifest, bytes({ format: 'kmem-export', version: 1, memory: { name: 'x', memoryType: 'table' } })),
    ).toThrow(/memory\.memoryType is missing or invalid/);
    expect(() => readManifest(MEMBERS.manifest, new TextEncoder().encode('{not json'))).toThrow(/manifest.json is not JSON/);
  });

  it('knows its member names and no others', () => {
    expect([MEMBERS.files(0), MEMBERS.sessions(3), MEMBERS.messages(12), MEMBERS.chunks(99999)].map(memberKind)).toEqual([
      'files',
      'sessions',
      'messages',
      'chunks',
    ]);
    expect([MEMBERS.manifest, MEMBERS.graph, MEMBERS.end].map(memberKind)).toEqual(['manifest', 'graph', 'end']);
    expect(['files/0.jsonl', 'files/00000.json', '../files/00000.jsonl', 'other.txt'].map(memberKind)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('carries vectors as float32 values, exactly', () => {
    const vector = Float32Array.from([0.5, -0.25, 1e-7, 0]);
    expect(decodeVector(encodeVector(vector))).toEqual(vector);
  });
});

describe('the ids of a restore', () => {
  it('renames ids, sources, chunk ids and nested records the same way every time, and nothing else', () => {
    const ids = new IdMap('memory-1');
    const file = ids.add('f1');
    const session = ids.add('s1');
    const message = ids.add('m1');
    expect(file).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new IdMap('memory-1').add('f1')).toBe(file);
    expect(new IdMap('memory-2').add('f1')).not.toBe(file);
    expect(
      ids.renameAll({
        id: 'f1:3',
        fileId: 'f1',
        source: 'session:s1',
        chunk: 'msg:m1',
        text: 'f1 is not renamed inside text',
        [`f1`]: ['s1', 7],
      }),
    ).toEqual({
      id: `${file}:3`,
      fileId: file,
      source: `session:${session}`,
      chunk: `msg:${message}`,
      text: 'f1 is not renamed inside text',
      [file]: [session, 7],
    });
    expect(ids.rename('unknown:1')).toBe('unknown:1');
  });
});
