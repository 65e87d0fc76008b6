/**
 * Chunk lists as stored: a message chunk's `sessionId` and `customerUserId` are written and read as the
 * `sessionID` and `customerUserID` earlier versions stored, so indexes already published read unchanged.
 */
import { describe, expect, it } from 'vitest';
import { decodeChunks, encodeChunks } from '../../../functions/core/stored-index/chunks';

const STORED = JSON.stringify([
  { id: 'notes:0', fileId: 'notes', text: 'The ferry leaves at nine.', start: 0, end: 25, title: 'notes.txt' },
  {
    id: 'msg:m1',
    fileId: 'session:s1',
    text: 'See you at the pier.',
    start: 0,
    end: 20,
    message: { id: 'm1', sessionID: 's1', role: 'user', customerUserID: 'c7', createdAt: '2026-11-24T09:00:00.000Z' },
    context: '24 Nov 2026',
  },
]);

describe('chunk lists', () => {
  it('read a stored message in the domain casing and write it back byte for byte', () => {
    const chunks = decodeChunks(Buffer.from(STORED));
    expect(chunks[1]?.message).toEqual({
      id: 'm1',
      sessionId: 's1',
      role: 'user',
      customerUserId: 'c7',
      createdAt: '2026-11-24T09:00:00.000Z',
    });
    expect(chunks[0]).not.toHaveProperty('message');
    expect(encodeChunks(chunks)).toBe(STORED);
  });

  it('leave the texts out when asked (a segment: its retrieval index holds them), nothing else', () => {
    const chunks = decodeChunks(Buffer.from(STORED));
    const stored = JSON.parse(encodeChunks(chunks, { texts: false })) as Array<Record<string, unknown>>;
    const withTexts = JSON.parse(STORED) as Array<Record<string, unknown>>;
    expect(stored).toEqual(withTexts.map(({ text: _text, ...rest }) => rest));
    expect(decodeChunks(Buffer.from(JSON.stringify(stored)))[1]?.message?.sessionId).toBe('s1');
  });
});
