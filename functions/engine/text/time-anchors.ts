/**
 * Times named from another time, and durations, for time-expressions.ts:
 *
 * - from a date: "the week before 25 May" (the seven days before it), "the Sunday before 25 May, 2023",
 *   "the weekend after 4 July", "the day before 3 June", "the month before March 2023", "three days after
 *   4 July 2023", "two weeks before August 3, 2023";
 * - from now: "the week before last", "the weekend before last", "the month before last", "the year before last";
 * - "for the past three months", "over the last two weeks": from that long before the reference to it;
 * - a bare duration ("for three months", "for a year") and a time from an event that is no date ("two weeks
 *   before the wedding") name no time: they are claimed, so the parser does not read them as one.
 */
import { casual } from 'chrono-node/en';
import { DAY, dayOf, monthOf, NUMBER_WORDS, type RuleMatch, type TimeSpan, weekendOf, yearOf } from './time-spans';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const UNIT = `(day|week|weekend|month|year|${WEEKDAYS.join('|')})`;
const COUNT = String.raw`(a|an|one|two|three|four|five|six|a few|a couple of|several|\d+)`;
const UNITS = '(days?|weeks?|months?|years?)';

/** "the week before <date>", "the Sunday before <date>"; "before last" when no date follows. */
const FROM_DATE = new RegExp(String.raw`\b(?:the\s+)?${UNIT}\s+(before|after)\s+`, 'gi');
/** "three days after <date>"; "two weeks before" anything else names no time. */
const COUNTED_FROM = new RegExp(String.raw`\b${COUNT}\s+${UNITS}\s+(before|after)\s+`, 'gi');
/** "for the past three months", "over the last two weeks", "in the past year". */
const PAST = new RegExp(String.raw`\b(?:for|over|in|during)\s+the\s+(?:past|last)\s+(?:${COUNT}\s+)?${UNITS}\b`, 'gi');
/** "for three months": a duration. */
const DURATION = new RegExp(String.raw`\bfor\s+(?:about\s+|almost\s+|nearly\s+|over\s+)?${COUNT}\s+${UNITS}\b`, 'gi');

/** The anchored wordings of `text`, resolved against `reference` (see the module comment). */
export function* anchoredMatches(text: string, reference: Date): Generator<RuleMatch> {
  yield* fromDateMatches(text, reference);
  yield* countedMatches(text, reference);
  for (const match of text.matchAll(PAST)) {
    const from = match.index ?? 0;
    const count = match[1] ? countOf(match[1]) : 1;
    const unit = (match[2] ?? '').toLowerCase().replace(/s$/, '');
    yield { from, to: from + match[0].length, span: { start: back(unit, count, reference), end: reference.getTime() } };
  }
  for (const match of text.matchAll(DURATION)) yield { from: match.index ?? 0, to: (match.index ?? 0) + match[0].length };
}

/** "the week before <date>", "the Sunday after <date>"; "the week before last". */
function* fromDateMatches(text: string, reference: Date): Generator<RuleMatch> {
  for (const match of text.matchAll(FROM_DATE)) {
    const unit = (match[1] ?? '').toLowerCase();
    const after = (match[2] ?? '').toLowerCase() === 'after';
    const from = match.index ?? 0;
    const end = from + match[0].length;
    if (!after && /^last\b/i.test(text.slice(end))) {
      yield { from, to: end + 4, span: beforeLast(unit, reference) };
      continue;
    }
    const anchor = dateAt(text, end, reference);
    if (anchor) yield { from, to: anchor.to, span: fromDate(unit, after, anchor.at) };
  }
}

/** "three days after <date>"; "two weeks before" anything but a date is claimed, naming no time. */
function* countedMatches(text: string, reference: Date): Generator<RuleMatch> {
  for (const match of text.matchAll(COUNTED_FROM)) {
    const from = match.index ?? 0;
    const end = from + match[0].length;
    const anchor = dateAt(text, end, reference);
    const count = countOf(match[1] ?? '');
    const unit = (match[2] ?? '').toLowerCase().replace(/s$/, '');
    const sign = (match[3] ?? '').toLowerCase() === 'after' ? 1 : -1;
    yield anchor ? { from, to: anchor.to, span: shifted(unit, sign * count, anchor.at) } : { from, to: end };
  }
}

/** A date chrono reads right at `offset` (after spaces), with the day known; and where its wording ends. */
function dateAt(text: string, offset: number, reference: Date): { at: number; to: number } | undefined {
  const rest = text.slice(offset);
  const found = casual.parse(rest, { instant: reference, timezone: 'UTC' }, { forwardDate: false })[0];
  if (!found || rest.slice(0, found.index).trim() !== '' || !found.start.isCertain('day')) return undefined;
  return { at: dayOf(found.start.date().getTime()).start, to: offset + found.index + found.text.length };
}

function fromDate(unit: string, after: boolean, day: number): TimeSpan {
  const date = new Date(day);
  if (WEEKDAYS.includes(unit)) return weekdayFrom(WEEKDAYS.indexOf(unit), after, day);
  if (unit === 'week') return after ? { start: day + DAY, end: day + 8 * DAY } : { start: day - 7 * DAY, end: day };
  if (unit === 'weekend') return weekendFrom(after, day);
  if (unit === 'month') return monthOf(date.getUTCFullYear(), date.getUTCMonth() + (after ? 1 : -1));
  if (unit === 'year') return yearOf(date.getUTCFullYear() + (after ? 1 : -1));
  return dayOf(day + (after ? DAY : -DAY));
}

/** The first such weekday after `day`, or the last before it. */
function weekdayFrom(weekday: number, after: boolean, day: number): TimeSpan {
  const today = new Date(day).getUTCDay();
  const gap = after ? (weekday - today + 7) % 7 || 7 : (today - weekday + 7) % 7 || 7;
  return dayOf(day + (after ? gap : -gap) * DAY);
}

/** The weekend after `day` (the next one when it is a weekend day), or the one before it. */
function weekendFrom(after: boolean, day: number): TimeSpan {
  const holding = weekendOf(day).start; // the weekend of the day, or the next one
  const saturday = after ? (holding <= day ? holding + 7 * DAY : holding) : holding - 7 * DAY;
  return { start: saturday, end: saturday + 2 * DAY };
}

/** "the week before last": the one before the last whole one. */
function beforeLast(unit: string, reference: Date): TimeSpan {
  const now = reference.getTime();
  if (unit === 'month') return monthOf(reference.getUTCFullYear(), reference.getUTCMonth() - 2);
  if (unit === 'year') return yearOf(reference.getUTCFullYear() - 2);
  if (unit === 'weekend') {
    const last = weekendOf(now).start - 7 * DAY;
    return { start: last - 7 * DAY, end: last - 5 * DAY };
  }
  if (WEEKDAYS.includes(unit)) return fromDate(unit, false, fromDate(unit, false, dayOf(now).start).start);
  if (unit === 'day') return dayOf(now - 2 * DAY);
  return { start: now - 17.5 * DAY, end: now - 10.5 * DAY }; // "last week" is the week around seven days ago
}

/** The day, week, month or year `count` units from `day`. */
function shifted(unit: string, count: number, day: number): TimeSpan {
  const date = new Date(day);
  if (unit === 'week') return { start: day + count * 7 * DAY - 3.5 * DAY, end: day + count * 7 * DAY + 3.5 * DAY };
  if (unit === 'month') return monthOf(date.getUTCFullYear(), date.getUTCMonth() + count);
  if (unit === 'year') return yearOf(date.getUTCFullYear() + count);
  return dayOf(day + count * DAY);
}

/** `count` units before the reference. */
function back(unit: string, count: number, reference: Date): number {
  const date = new Date(reference.getTime());
  if (unit === 'week') return reference.getTime() - count * 7 * DAY;
  if (unit === 'month') date.setUTCMonth(date.getUTCMonth() - count);
  else if (unit === 'year') date.setUTCFullYear(date.getUTCFullYear() - count);
  else return reference.getTime() - count * DAY;
  return date.getTime();
}

function countOf(word: string): number {
  const lower = word.toLowerCase();
  if (lower === 'a few' || lower === 'several') return 3;
  if (lower === 'a couple of') return 2;
  return NUMBER_WORDS[lower] ?? (Number(lower) || 1);
}
