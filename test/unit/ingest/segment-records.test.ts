/**
 * A segment's chunk records as stored (segment-records.ts): format 2 keeps only what the segment's
 * retrieval index does not hold, and reads back the very records; the whole records of older segments
 * read as they are; records that are not their index's chunks are stored whole.
 */
import { describe, expect, it } from 'vitest';
import type { StoredChunk } from '../../../functions/core/stored-index/chunks';
import { decodeSegmentRecords, encodeSegmentRecords } from '../../../functions/core/stored-index/segment-records';
import { buildRetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';

const CHUNKS: StoredChunk[] = [
  { id: 'notes:0', fileId: 'notes', text: 'The ferry leaves at nine.', start: 0, end: 25, title: 'notes.txt' },
  { id: 'notes:1', fileId: 'notes', text: 'Tickets at the pier.', start: 20, end: 40, title: ' notes.txt ' },
  { id: 'page:0', fileId: 'crawl', text: 'Harbour opening hours.', start: 0, end: 22, title: 'Hours', pageId: 'page' },
  { id: 'bare:0', fileId: 'bare', text: 'No title here.', start: 0, end: 14 },
  {
    id: 'msg:m1',
    fileId: 'session:s1',
    text: 'See you at the pier.',
    start: 0,
    end: 20,
    message: { id: 'm1', sessionId: 's1', role: 'user', customerUserId: 'c7', createdAt: '2026-11-24T09:00:00.000Z' },
    context: '24 Nov 2026',
  },
];

const withoutText = ({ text: _text, ...record }: StoredChunk) => record;

describe('segment records', () => {
  it('store only what the index lacks and read back the same records, without their texts', async () => {
    const index = await buildRetrievalIndex(CHUNKS);
    const stored = encodeSegmentRecords(CHUNKS, index.chunks);
    const parsed = JSON.parse(stored) as { format: number; count: number; extras: Array<[number, Record<string, unknown>]> };
    expect(parsed.format).toBe(2);
    expect(parsed.count).toBe(CHUNKS.length);
    // the untrimmed title differs from the index's; the page, the message (stored casing) and context are the record's own
    expect(parsed.extras).toEqual([
      [1, { title: ' notes.txt ' }],
      [2, { pageId: 'page' }],
      [
        4,
        {
          message: { id: 'm1', sessionID: 's1', role: 'user', customerUserID: 'c7', createdAt: '2026-11-24T09:00:00.000Z' },
          context: '24 Nov 2026',
        },
      ],
    ]);
    expect(stored).not.toContain('ferry');
    expect(decodeSegmentRecords(Buffer.from(stored), index.chunks, 'seg/')).toEqual(CHUNKS.map(withoutText));
  });

  it('read the whole records older segments hold, with or without their texts', async () => {
    const index = await buildRetrievalIndex(CHUNKS);
    const old = JSON.stringify(
      CHUNKS.map(({ message, ...chunk }) =>
        message
          ? { ...chunk, message: { id: 'm1', sessionID: 's1', role: 'user', customerUserID: 'c7', createdAt: message.createdAt } }
          : chunk,
      ),
    );
    expect(decodeSegmentRecords(Buffer.from(old), index.chunks, 'seg/')).toEqual(CHUNKS);
    const textless = JSON.stringify(JSON.parse(old).map(({ text: _text, ...rest }: Record<string, unknown>) => rest));
    expect(decodeSegmentRecords(Buffer.from(textless), index.chunks, 'seg/')).toEqual(CHUNKS.map(withoutText));
  });

  it('store records whole when they are not the index chunks, and refuse a file that does not fit its index', async () => {
    const index = await buildRetrievalIndex(CHUNKS);
    const moved = CHUNKS.map((chunk, i) => (i === 0 ? { ...chunk, start: 3 } : chunk));
    const stored = JSON.parse(encodeSegmentRecords(moved, index.chunks)) as unknown;
    expect(Array.isArray(stored)).toBe(true);
    const shorter = await buildRetrievalIndex(CHUNKS.slice(1));
    expect(() => decodeSegmentRecords(Buffer.from(encodeSegmentRecords(CHUNKS, index.chunks)), shorter.chunks, 'seg/')).toThrow(
      /seg\/.*do not fit its index/,
    );
  });
});
