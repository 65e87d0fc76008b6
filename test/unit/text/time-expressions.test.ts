/** Time expressions of queries and texts, resolved against a reference instant into spans of time (UTC). */
import { describe, expect, it } from 'vitest';
import { asksForTime, closeness, type TimeSpan, timeSpansIn } from '../../../functions/engine/text/time-expressions';

const REFERENCE = new Date('2023-10-20T12:00:00Z'); // a Friday
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const iso = (span: TimeSpan): [string, string] => [
  new Date(span.start).toISOString().slice(0, 10),
  new Date(span.end).toISOString().slice(0, 10),
];
const spans = (text: string): Array<[string, string]> => timeSpansIn(text, REFERENCE).map(iso);

describe('time expressions', () => {
  it('resolves absolute dates, months and years to the span their wording covers', () => {
    expect(spans('Who did Maria have dinner with on May 3, 2023?')).toEqual([['2023-05-03', '2023-05-04']]);
    expect(spans('What happened on 3 June, 2023?')).toEqual([['2023-06-03', '2023-06-04']]);
    expect(spans('What did John attend in March 2023?')).toEqual([['2023-03-01', '2023-04-01']]);
    expect(spans('What did we build in 2022?')).toEqual([['2022-01-01', '2023-01-01']]);
    expect(spans('When did Caroline attend a pride parade in August?')).toEqual([['2023-08-01', '2023-09-01']]);
  });

  it('resolves relative expressions against the reference', () => {
    expect(spans('what did I do yesterday')).toEqual([['2023-10-19', '2023-10-20']]);
    expect(spans('what did I do last May')).toEqual([['2023-05-01', '2023-06-01']]);
    expect(spans('plans for next May')).toEqual([['2024-05-01', '2024-06-01']]);
    expect(spans('the trip last year')).toEqual([['2022-01-01', '2023-01-01']]);
    expect(spans('the book I read last month')).toEqual([['2023-09-01', '2023-10-01']]);
    expect(spans('the concert last Friday')).toEqual([['2023-10-13', '2023-10-14']]);
    expect(spans('what we did last weekend')).toEqual([['2023-10-14', '2023-10-16']]);
    expect(spans('we went camping two weekends ago')).toEqual([['2023-10-07', '2023-10-09']]);
    // a date of a known year is what the relative expressions beside it are relative to
    expect(spans('What did Maria do last weekend before April 10, 2023?')).toEqual([['2023-04-08', '2023-04-10']]);
    expect(spans('the week before August 3, 2023')).toEqual([['2023-07-27', '2023-08-03']]); // the seven days before it
  });

  it('resolves times named from a date, "before last", and spans back from the reference', () => {
    expect(spans('the Sunday before 25 May, 2023')).toEqual([['2023-05-21', '2023-05-22']]);
    expect(spans('the weekend before 27 June')).toEqual([['2023-06-24', '2023-06-26']]);
    expect(spans('the weekend after 4 July 2023')).toEqual([['2023-07-08', '2023-07-10']]);
    expect(spans('the day before 3 June')).toEqual([['2023-06-02', '2023-06-03']]);
    expect(spans('three days after 4 July 2023')).toEqual([['2023-07-07', '2023-07-08']]);
    expect(spans('the week before last')).toEqual([['2023-10-03', '2023-10-10']]);
    expect(spans('the weekend before last')).toEqual([['2023-10-07', '2023-10-09']]);
    expect(spans('what changed over the last two weeks')).toEqual([['2023-10-06', '2023-10-20']]);
  });

  it('reads no time in a bare duration or in a time from an event that is no date', () => {
    expect(spans('I practised for three months')).toEqual([]);
    expect(spans('two weeks before the wedding')).toEqual([]);
    expect(spans('we met again two weeks later')).toEqual([]);
  });

  it('resolves seasons of the northern hemisphere', () => {
    expect(spans('during the summer')).toEqual([['2023-06-01', '2023-09-01']]);
    expect(spans('last summer')).toEqual([['2023-06-01', '2023-09-01']]); // in October: the summer just past
    expect(timeSpansIn('last summer', new Date('2023-07-10T00:00:00Z')).map(iso)).toEqual([['2022-06-01', '2022-09-01']]);
    expect(spans('in the winter of 2022')).toEqual([['2022-12-01', '2023-03-01']]);
    // "this": the reference year's, ahead or past, as "this May" is
    const inApril = new Date('2023-04-20T00:00:00Z');
    expect(timeSpansIn('are we going camping this summer?', inApril).map(iso)).toEqual([['2023-06-01', '2023-09-01']]);
    expect(spans('this summer')).toEqual([['2023-06-01', '2023-09-01']]); // in October: the summer just past
    expect(timeSpansIn('the lake froze this winter', new Date('2024-01-05T00:00:00Z')).map(iso)).toEqual([['2023-12-01', '2024-03-01']]);
    expect(timeSpansIn('this winter', new Date('2023-11-05T00:00:00Z')).map(iso)).toEqual([['2023-12-01', '2024-03-01']]);
  });

  it('finds no time where there is none, and takes no modal verb for a month', () => {
    expect(spans('What did Caroline research?')).toEqual([]);
    expect(spans('I may go to the beach, may I?')).toEqual([]);
    expect(spans('Room 2023 is on the second floor')).toEqual([]);
  });

  it('tells questions that ask for a time', () => {
    expect(asksForTime('When did Melanie paint a sunrise?')).toBe(true);
    expect(asksForTime('What year did John start surfing?')).toBe(true);
    expect(asksForTime('How long ago was her 18th birthday?')).toBe(true);
    expect(asksForTime('How many weeks passed between adopting Coco and Shadow?')).toBe(true);
    expect(asksForTime('What did Caroline research?')).toBe(false);
    expect(asksForTime('How many dogs does Maria have?')).toBe(false);
    expect(asksForTime("Who gave Maria's family money when she was younger?")).toBe(false);
  });

  it('scores closeness 1 inside a span, falling to one half a span-length away', () => {
    const may = { start: day('2023-05-01'), end: day('2023-06-01') };
    const length = may.end - may.start;
    const at = (time: number) => ({ start: time, end: time });
    expect(closeness([may], at(day('2023-05-15')))).toBe(1);
    expect(closeness([may], at(may.end + length))).toBeCloseTo(0.5);
    expect(closeness([may], at(may.start - length))).toBeCloseTo(0.5);
    expect(closeness([may], { start: day('2023-04-20'), end: day('2023-05-02') })).toBe(1); // a span that meets it
    expect(closeness([], at(day('2023-05-15')))).toBe(0);
  });
});
