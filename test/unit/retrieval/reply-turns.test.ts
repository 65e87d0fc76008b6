/**
 * Replies beside the turns that ask: a small conversation where the question's words are in a turn that
 * asks and the answer is in the reply after it, which shares none of them. Ranking alone leaves the reply
 * out of the top; with conversation order the reply follows the asking turn at its score.
 */
import { describe, expect, it } from 'vitest';
import { nextTurns } from '../../../functions/core/use-cases/conversation-turns';
import { asksQuestion, withReplies } from '../../../functions/engine/retrieval/reply-turns';
import { buildRetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { retrieve } from '../../../functions/engine/retrieval/retrieve';

/** Two sessions; in s2 the answer (clarinet) follows the turn that asks about instruments. */
const TURNS: ReadonlyArray<{ session: string; at: string; text: string }> = [
  { session: 's1', at: '2023-05-01T10:00:00Z', text: 'Mel: We went to the beach with the kids last weekend.' },
  { session: 's1', at: '2023-05-01T10:00:01Z', text: 'Caro: That sounds lovely, the sea must have been cold.' },
  { session: 's2', at: '2023-06-01T10:00:00Z', text: 'Caro: Music keeps me going. Do you play any instruments?' },
  { session: 's2', at: '2023-06-01T10:00:01Z', text: 'Mel: Yeah, I play clarinet! Started when I was young.' },
  { session: 's2', at: '2023-06-01T10:00:02Z', text: 'Caro: Wow, I would love to hear it one day.' },
  { session: 's3', at: '2023-07-01T10:00:00Z', text: 'Mel: Instruments in the school band were all borrowed.' },
];
const index = await buildRetrievalIndex(TURNS.map((turn, i) => ({ id: `t${i}`, fileId: turn.session, text: turn.text })));
const messages = TURNS.map((turn) => ({ sessionId: turn.session, createdAt: turn.at }));
const QUERY = 'what instruments does Mel play';

describe('asking turns', () => {
  it('ask when their last sentence ends with a question mark', () => {
    expect(asksQuestion('Cool! What did it look like?')).toBe(true);
    expect(asksQuestion('You play any instruments? ')).toBe(true);
    expect(asksQuestion('She asked "are you coming?"')).toBe(true);
    expect(asksQuestion('¿Vienes mañana？')).toBe(true);
    expect(asksQuestion('Why? Because I love it.')).toBe(false);
    expect(asksQuestion('Yeah, I play clarinet!')).toBe(false);
  });
});

describe('conversation order', () => {
  it('is each turn’s next turn in its session, by time then index order', () => {
    const next = nextTurns({}, () => messages);
    expect([0, 1, 2, 3, 4, 5].map(next)).toEqual([1, undefined, 3, 4, undefined, undefined]);
    const sameTime = nextTurns({}, () => [
      { sessionId: 'a', createdAt: '2023-01-01T00:00:00Z' },
      undefined,
      { sessionId: 'a', createdAt: '2023-01-01T00:00:00Z' },
      { sessionId: 'a', createdAt: '2022-12-31T00:00:00Z' },
    ]);
    expect([0, 1, 2, 3].map(sameTime)).toEqual([2, undefined, undefined, 0]);
  });
});

describe('replies beside asking turns', () => {
  it('bring the reply that shares no word with the query right after the turn that asks', async () => {
    const plain = await retrieve(index, { query: QUERY, topK: 2 });
    const plainTexts = plain.items.map((item) => item.content);
    expect(plainTexts.some((text) => text.includes('clarinet'))).toBe(false);

    const replyOf = nextTurns({}, () => messages);
    const replied = await retrieve(index, { query: QUERY, topK: 3, replyOf });
    const texts = replied.items.map((item) => item.content);
    const asking = texts.findIndex((text) => text.includes('Do you play any instruments?'));
    expect(asking).toBeGreaterThanOrEqual(0);
    expect(texts[asking + 1]).toContain('clarinet');
    expect(replied.items[asking + 1]?.score).toBe(replied.items[asking]?.score);
  });

  it('leave a reply that already ranks above in its place and never repeat a turn', () => {
    const hits = [
      { ordinal: 3, score: 3, parts: {} },
      { ordinal: 2, score: 2, parts: {} },
      { ordinal: 0, score: 1, parts: {} },
    ];
    const lookup = { replyOf: nextTurns({}, () => messages), textOf: (ordinal: number) => TURNS[ordinal]?.text ?? '' };
    expect(withReplies(hits, lookup).map((hit) => hit.ordinal)).toEqual([3, 2, 0]);
    const later = [hits[1]!, hits[2]!, { ordinal: 3, score: 0.5, parts: {} }];
    expect(withReplies(later, lookup).map((hit) => [hit.ordinal, hit.score])).toEqual([
      [2, 2],
      [3, 2],
      [0, 1],
    ]);
  });

  it('skip a reply that may not be answered', () => {
    const hits = [{ ordinal: 2, score: 2, parts: {} }];
    const lookup = {
      replyOf: nextTurns({}, () => messages),
      textOf: (ordinal: number) => TURNS[ordinal]?.text ?? '',
      allow: (ordinal: number) => ordinal !== 3,
    };
    expect(withReplies(hits, lookup).map((hit) => hit.ordinal)).toEqual([2]);
  });
});
