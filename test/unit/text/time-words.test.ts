/**
 * The pre-check before chrono-node (time-words.ts) is exact: every text chrono reads a date or time in
 * passes it. Checked against chrono itself over its own example phrases, random texts made of its
 * vocabulary, and, when the bench data is on this machine (KMEM_BENCH_DATA, else ../shared/bench-data or
 * ../../shared/bench-data from the repository), every SciFact claim and every LoCoMo question and turn.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { casual } from 'chrono-node/en';
import { describe, expect, it } from 'vitest';
import { mayNameTime } from '../../../functions/engine/text/time-words';
import { fc } from '../../support/property-seed';

const REFERENCE = new Date('2023-10-20T12:00:00Z');
const chronoFinds = (text: string): boolean =>
  casual.parse(text, { instant: REFERENCE, timezone: 'UTC' }, { forwardDate: false }).length > 0;

/** The texts chrono reads a time in that the pre-check turns away (must be none). */
const missed = (texts: Iterable<string>): string[] => [...texts].filter((text) => !mayNameTime(text) && chronoFinds(text));

/** chrono-node's README and documentation examples, and the wordings kmem's tests and LoCoMo use. */
const CHRONO_EXAMPLES = [
  'Today',
  'Tomorrow',
  'Yesterday',
  'Last Friday',
  'last night',
  'tonight',
  'this morning',
  'at noon',
  'midnight',
  '17 August 2013 - 19 August 2013',
  'This Friday from 13:00 - 16.00',
  '5 days ago',
  '2 weeks from now',
  'Sat Aug 17 2013 18:40:39 GMT+0900 (JST)',
  '2014-11-30T08:15:30-05:30',
  'An appointment on Sep 12-13',
  'I have an appointment tomorrow from 10 to 11 AM',
  'Friday at 4pm',
  'in an h',
  'a h ago',
  'the m later',
  'the s after',
  'a few h later',
  'past m',
  'next mo',
  '- a d',
  'in a sec',
  'inmay',
  'half an hour ago',
  'a couple of days later',
  'within a minute',
  'several weeks earlier',
  'next quarter',
  'end of the month',
  'the last day of month',
  'overmorrow',
  'tmrw',
  'this weekend',
  'on the first of March',
  'twenty-first of June',
  '3rd of October 2022',
  'two weeks before',
  'a year from now',
];

const VOCABULARY = [
  ...'jan feb mar apr may jun jul aug sep sept oct nov dec january march june july august october'.split(' '),
  ...'sun mon tue tues wed thu thur thurs fri sat monday friday sunday weekend weekday'.split(' '),
  ...'now today tonight tomorrow overmorrow tmr tmrw yesterday night morning afternoon evening midnight midday noon'.split(' '),
  ...'s sec m min mins h hr hrs d w mo mon mos qtr y yr second seconds minute hour hours day days week weeks month months quarter year years'.split(
    ' ',
  ),
  ...'one two three four five six seven eight nine ten eleven twelve a an the half few several couple of'.split(' '),
  ...'first second third tenth twelfth twentieth thirtieth twenty'.split(' '),
  ...'this last past next after before ago earlier later from henceforth forward out within in for about around and at on end'.split(' '),
  ...'them these then tend as am is study cell was were dog'.split(' '),
];
const SEPARATORS = [' ', ' ', ' ', '', ',', '-', '.', "'", '  ', '+', '~', '\n'];

describe('mayNameTime, the pre-check before chrono', () => {
  it('passes every chrono example phrase, and turns away plain time-free text', () => {
    expect(missed(CHRONO_EXAMPLES)).toEqual([]);
    for (const example of CHRONO_EXAMPLES) expect(chronoFinds(example) ? mayNameTime(example) : true).toBe(true);
    expect(mayNameTime('Aspirin lowers the risk of colorectal cancer.')).toBe(false);
    expect(mayNameTime('What did Caroline research?')).toBe(false);
  });

  it('passes every random text of chrono vocabulary that chrono finds a time in', () => {
    const word = fc.constantFrom(...VOCABULARY);
    const cased = fc
      .tuple(word, fc.constantFrom('lower', 'upper', 'title'))
      .map(([text, casing]) =>
        casing === 'upper' ? text.toUpperCase() : casing === 'title' ? text.charAt(0).toUpperCase() + text.slice(1) : text,
      );
    const text = fc
      .array(fc.tuple(cased, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.map(([part, separator]) => part + separator).join(''));
    fc.assert(
      fc.property(text, (candidate) => {
        if (chronoFinds(candidate)) expect(mayNameTime(candidate), candidate).toBe(true);
      }),
      { numRuns: 4000 },
    );
  });

  const data = benchData();
  it.skipIf(!data)('passes every SciFact claim and LoCoMo question and turn that chrono finds a time in', () => {
    const root = data ?? '';
    const claims = readFileSync(resolve(root, 'scifact/queries.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const locomo = JSON.parse(readFileSync(resolve(root, 'locomo/locomo_dev.json'), 'utf8')) as LocomoSample[];
    const questions = locomo.flatMap((sample) => sample.qa.map((qa) => qa.question));
    const turns = locomo.flatMap((sample) =>
      Object.values(sample.conversation).flatMap((session) => (Array.isArray(session) ? session.map((turn) => turn.text) : [])),
    );
    expect(claims.length).toBeGreaterThan(800);
    expect(questions.length + turns.length).toBeGreaterThan(1000);
    expect(missed([...claims, ...questions, ...turns])).toEqual([]);
    // and the check is worth running: most claims name no time and skip the parser
    expect(claims.filter((claim) => !mayNameTime(claim)).length).toBeGreaterThan(claims.length / 4);
  });
});

interface LocomoSample {
  qa: Array<{ question: string }>;
  conversation: Record<string, Array<{ text: string }> | string>;
}

function benchData(): string | undefined {
  const candidates = [process.env.KMEM_BENCH_DATA, '../shared/bench-data', '../../shared/bench-data'];
  for (const candidate of candidates) {
    if (candidate && existsSync(resolve(candidate, 'scifact/queries.jsonl')) && existsSync(resolve(candidate, 'locomo/locomo_dev.json'))) {
      return resolve(candidate);
    }
  }
  return undefined;
}
