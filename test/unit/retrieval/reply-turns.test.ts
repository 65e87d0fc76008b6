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
import { timePrior } from '../../../functions/engine/retrieval/time-prior';

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

/**
 * A question that states the named time ("camping this summer?", written in April, meets June) and a reply that is not of
 * it: the reply takes the question's match to the query's words, not its time, so the June turn
 * outranks it.
 */
const CAMPING: ReadonlyArray<{ session: string; at: string; text: string }> = [
  {
    session: 'may',
    at: '2023-04-20T10:00:00Z',
    text: 'Mel: My two kids keep asking me about their plans all day long. Are we going camping this summer?',
  },
  { session: 'may', at: '2023-04-20T10:00:01Z', text: 'Caro: I have been researching adoption agencies all week.' },
  { session: 'june', at: '2023-06-27T10:00:00Z', text: 'Mel: Camping with the kids in the hills!' },
  { session: 'oct', at: '2023-10-02T10:00:00Z', text: 'Caro: Good morning! How have you been?' },
];
const campingIndex = await buildRetrievalIndex(CAMPING.map((turn, i) => ({ id: `c${i}`, fileId: turn.session, text: turn.text })));
const campingTurns = nextTurns({}, () => CAMPING.map((turn) => ({ sessionId: turn.session, createdAt: turn.at })));
const inJune = timePrior(
  { timeOf: (ordinal) => Date.parse(CAMPING[ordinal]?.at ?? ''), textOf: (ordinal) => CAMPING[ordinal]?.text ?? '' },
  campingIndex,
  'When did Mel go camping with the kids in June?',
  new Date('2023-10-02T10:00:00Z'),
);

describe('replies beside asking turns, with a time prior', () => {
  it('score the asking turn’s match times their own time lift, so a turn of the named time outranks a reply not of it', async () => {
    if (!inJune) throw new Error('the query names June: it has a prior');
    expect(inJune(0)).toBeGreaterThan(inJune(1)); // the question states June, its reply (in April) does not
    const query = 'When did Mel go camping with the kids in June?';
    const answer = await retrieve(campingIndex, { query, topK: 3, replyOf: campingTurns, prior: inJune });
    const texts = answer.items.map((item) => item.content);
    expect(texts[0]).toContain('camping this summer?');
    expect(texts[1]).toContain('Camping with the kids');
    expect(texts[2]).toContain('adoption agencies');
    const [asking, , reply] = answer.items;
    expect(reply?.score).toBeCloseTo(((asking?.score ?? 0) * (1 + inJune(1))) / (1 + inJune(0)), 5);
  });

  it('place a lowered reply by its score, and keep a reply whose own hit scores more at that score', () => {
    const prior = (ordinal: number): number => (ordinal === 2 ? 2 : 0);
    const lookup = { replyOf: nextTurns({}, () => messages), textOf: (ordinal: number) => TURNS[ordinal]?.text ?? '', prior };
    const hits = [
      { ordinal: 2, score: 9, parts: {} },
      { ordinal: 5, score: 4, parts: {} },
      { ordinal: 0, score: 1, parts: {} },
    ];
    // the reply (3) scores 9 / 3 = 3: after 5, before 0
    expect(withReplies(hits, lookup).map((hit) => [hit.ordinal, hit.score])).toEqual([
      [2, 9],
      [5, 4],
      [3, 3],
      [0, 1],
    ]);
    const ownHigher = [hits[0]!, { ordinal: 3, score: 5, parts: {} }, hits[1]!];
    expect(withReplies(ownHigher, lookup).map((hit) => [hit.ordinal, hit.score])).toEqual([
      [2, 9],
      [3, 5],
      [5, 4],
    ]);
  });

  it('follow the asking turn at its score when the reply is as much of the named time', () => {
    const lookup = { replyOf: nextTurns({}, () => messages), textOf: (ordinal: number) => TURNS[ordinal]?.text ?? '', prior: () => 1 };
    const hits = [
      { ordinal: 2, score: 6, parts: {} },
      { ordinal: 5, score: 5, parts: {} },
    ];
    expect(withReplies(hits, lookup).map((hit) => [hit.ordinal, hit.score])).toEqual([
      [2, 6],
      [3, 6],
      [5, 5],
    ]);
  });
});
