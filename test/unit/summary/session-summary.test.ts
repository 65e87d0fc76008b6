/** The extractive session summary: central sentences, key points that cover the topics, and batch-by-batch updates. */
import { describe, expect, it } from 'vitest';
import { addToSummary, emptySummaryState, selectSummary, type SummaryMessage } from '../../../functions/engine/summary/session-summary';
import { summaryStateFromJson, summaryStateToJson } from '../../../functions/engine/summary/summary-state-format';

const TRIP: readonly string[] = [
  'Hi! How are you today?',
  'I am fine, thanks. I want to plan a trip to Lisbon in June with my sister.',
  'Lisbon in June is lovely. Do you want a hotel near the river or in the old town?',
  'A hotel in the old town, please. My sister loves old town streets and the trams.',
  'The old town of Lisbon has a few small hotels with views of the river and the trams.',
  'Great. We also need train tickets from Porto to Lisbon for the trip in June.',
  'Trains from Porto to Lisbon leave every hour and the trip takes three hours.',
  'By the way, my cat Miso has a vet appointment on Friday.',
  'Thanks!',
];
const messages = (texts: readonly string[], from = 0): SummaryMessage[] => texts.map((content, i) => ({ id: `m${from + i}`, content }));

describe('session summary', () => {
  it('picks central sentences in the order they were said, and key points that reach the other topics', () => {
    const state = addToSummary(emptySummaryState(), messages(TRIP));
    const { summary, keyPoints } = selectSummary(state);

    expect(state.messages).toBe(TRIP.length);
    expect(summary).toMatch(/Lisbon/);
    expect(summary.length).toBeLessThanOrEqual(600);
    expect(summary).not.toMatch(/Thanks!|How are you/); // greetings hold too few terms to be kept
    const sentences = summary.split(/(?<=[.!?]) /);
    const said = sentences.map((sentence) => TRIP.findIndex((text) => text.includes(sentence)));
    expect(said.every((index) => index >= 0)).toBe(true);
    expect([...said].sort((a, b) => a - b)).toEqual(said);
    expect(keyPoints.length).toBeGreaterThanOrEqual(3);
    expect(keyPoints.length).toBeLessThanOrEqual(5);
    expect(keyPoints.some((point) => /vet appointment/.test(point))).toBe(true); // coverage reaches the odd topic out
    expect(keyPoints.some((point) => /train/i.test(point))).toBe(true);
  });

  it('gives what one pass gives when the messages come in batches, through the stored JSON', () => {
    const whole = selectSummary(addToSummary(emptySummaryState(), messages(TRIP)));
    let state = emptySummaryState();
    for (let i = 0; i < TRIP.length; i += 2) {
      state = addToSummary(state, messages(TRIP.slice(i, i + 2), i));
      state = summaryStateFromJson(JSON.parse(JSON.stringify(summaryStateToJson(state))));
    }
    expect(selectSummary(state)).toEqual(whole);
  });

  it('changes as new messages shift what the session is about', () => {
    const state = addToSummary(emptySummaryState(), messages(TRIP.slice(0, 3)));
    const before = selectSummary(state);
    const later = [
      'Actually the trip is off: my sister broke her leg and needs surgery next week.',
      'I am sorry about her leg. Surgery recovery after a broken leg takes a few weeks.',
      'Her surgery is on Monday and the doctor says the leg will heal well after surgery.',
      'Then the surgery on Monday comes first, and the trip can wait until her leg heals.',
    ];
    const after = selectSummary(addToSummary(state, messages(later, 3)));
    expect(after.summary).not.toEqual(before.summary);
    expect(after.summary).toMatch(/surgery/);
  });

  it('is empty for a session with nothing to summarise, and refuses a state of another shape', () => {
    expect(selectSummary(addToSummary(emptySummaryState(), messages(['Hi!', 'Ok.'])))).toEqual({ summary: '', keyPoints: [] });
    expect(() => summaryStateFromJson({ messages: 1 })).toThrow(TypeError);
    expect(() => summaryStateFromJson({ messages: 1, sentences: 1, terms: [['a', -1, 1]], pool: [] })).toThrow(TypeError);
  });

  it('keeps a term named like an object property as a plain term', () => {
    const state = addToSummary(
      emptySummaryState(),
      messages(['The constructor of the prototype bridge used hasOwnProperty checks daily.']),
    );
    const copy = summaryStateFromJson(JSON.parse(JSON.stringify(summaryStateToJson(state))));
    expect(copy.terms.get('constructor')).toEqual([1, 1]);
  });
});
