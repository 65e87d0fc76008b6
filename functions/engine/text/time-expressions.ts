/**
 * Times a text names ("in 2023", "last May", "yesterday", "on 3 June, 2023", "two weeks ago", "last
 * summer"), resolved against a reference instant (the conversation's latest message, or now) into spans
 * of time. Deterministic: chrono-node's English parser (casual dates, relative expressions, weekdays),
 * plus the rules it has none for: a bare year, "last|this|next <month>", seasons (northern hemisphere),
 * "N weekends ago". Each expression becomes the span its wording covers: a day, a weekend, a week, a
 * calendar month or year. All times are UTC.
 */
// the English locale's module: the same `casual` parser as the package's root, which loads all 16 locales
// (266 ES modules where this loads 51: 0.5 CPU-s less for each thread that loads the engine under tsx)
import { casual, type ParsedResult } from 'chrono-node/en';
import { anchoredMatches } from './time-anchors';
import { DAY, dayOf, monthOf, NUMBER_WORDS, type RuleMatch, type TimeSpan, weekendOf, yearOf } from './time-spans';
import { mayNameTime } from './time-words';

export type { TimeSpan } from './time-spans';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** First month (0-based) of each season; winter runs December to February. */
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

const YEAR = /\b(?:in|of|during|since|until|before|after|from|by)\s+((?:19|20)\d\d)\b(?!\s*[-/])/gi;
const RELATIVE_MONTH = new RegExp(`\\b(last|this|next)\\s+(${MONTHS.join('|')})\\b`, 'gi');
const SEASON = /\b(?:(last|this|next)\s+|the\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d\d))?\b/gi;
const WEEKENDS_AGO = /\b(a|one|two|three|four|\d+)\s+weekends?\s+ago\b/gi;

/**
 * The spans of time `text` names, in the order found; none when it names no time. When the text names a
 * date of a known year, its relative expressions are of that date ("last weekend before April 10, 2023").
 */
export function timeSpansIn(text: string, reference: Date): TimeSpan[] {
  const parsed = chronoParse(text, reference);
  const dated = parsed.find((result) => /\b(?:19|20)\d\d\b/.test(result.text) && result.start.isCertain('month'));
  // against the same reference, chrono's reading is the one just made: the text is parsed once, not twice
  return dated ? spansAgainst(text, dated.start.date()) : spansAgainst(text, reference, parsed);
}

/** chrono's reading of `text`; a text that cannot name a time (time-words.ts) is not given to it. */
function chronoParse(text: string, reference: Date): ParsedResult[] {
  if (!mayNameTime(text)) return [];
  return casual.parse(text, { instant: reference, timezone: 'UTC' }, { forwardDate: false });
}

function spansAgainst(text: string, reference: Date, parsed: readonly ParsedResult[] = chronoParse(text, reference)): TimeSpan[] {
  const claimed: Array<[number, number]> = [];
  const free = (from: number, to: number): boolean => claimed.every(([start, end]) => to <= start || from >= end);
  const spans: TimeSpan[] = [];
  // the more specific wording first: a year inside "the winter of 2022" is that winter's, not a year of its own
  for (const { from, to, span } of [...anchoredMatches(text, reference), ...ruleMatches(text, reference)]) {
    if (!free(from, to)) continue;
    claimed.push([from, to]);
    if (span) spans.push(span);
  }
  for (const result of parsed) {
    const span = chronoSpan(result);
    if (span && free(result.index, result.index + result.text.length)) spans.push(span);
  }
  return spans;
}

/**
 * How close `other` is to the named spans: 1 when it meets one of them; otherwise falling with the gap to
 * the closest, to one half `halfAt` span-lengths away (span / (span + gap) when `halfAt` is 1). `other`
 * may be an instant (`{start: t, end: t}`).
 */
export function closeness(spans: readonly TimeSpan[], other: TimeSpan, halfAt = 1): number {
  let best = 0;
  for (const span of spans) {
    const length = (span.end - span.start) * halfAt;
    const gap = other.end < span.start ? span.start - other.end : other.start >= span.end ? other.start - span.end : 0;
    best = Math.max(best, gap === 0 ? 1 : length / (length + gap));
  }
  return best;
}

function chronoSpan(result: ParsedResult): TimeSpan | undefined {
  // "two weeks before" with no date after it is before some event, not before the reference
  if (/\b(?:before|after|earlier|later)$/i.test(result.text.trim())) return undefined;
  const start = result.start;
  const at = start.date().getTime();
  const text = result.text.toLowerCase();
  if (/weekend/.test(text)) return weekendOf(at);
  if (/\bweeks?\b/.test(text)) return { start: at - 3.5 * DAY, end: at + 3.5 * DAY };
  if (start.isCertain('day') || start.isCertain('weekday')) return dayOf(at);
  if (start.isCertain('month')) return monthOf(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth());
  if (start.isCertain('year')) return yearOf(new Date(at).getUTCFullYear());
  return /\b(?:today|tonight|morning|afternoon|evening|night|now)\b/.test(text) ? dayOf(at) : undefined;
}

function* ruleMatches(text: string, reference: Date): Generator<RuleMatch> {
  const at = (match: RegExpMatchArray, span: TimeSpan): RuleMatch => ({
    from: match.index ?? 0,
    to: (match.index ?? 0) + match[0].length,
    span,
  });
  for (const match of text.matchAll(SEASON)) {
    yield at(match, season(match[1]?.toLowerCase(), SEASONS[(match[2] ?? '').toLowerCase()] ?? 5, match[3], reference));
  }
  for (const match of text.matchAll(RELATIVE_MONTH)) {
    yield at(match, relativeMonth(match[1] ?? '', MONTHS.indexOf((match[2] ?? '').toLowerCase()), reference));
  }
  for (const match of text.matchAll(WEEKENDS_AGO)) {
    const count = NUMBER_WORDS[(match[1] ?? '').toLowerCase()] ?? Number(match[1]);
    yield at(match, weekendOf(lastWeekendStart(reference.getTime()) - 7 * DAY * (count - 1)));
  }
  for (const match of text.matchAll(YEAR)) yield at(match, yearOf(Number(match[1])));
}

/** "last May": the latest May before the reference's month; "this May": the reference's year's; "next May": the first after. */
function relativeMonth(which: string, month: number, reference: Date): TimeSpan {
  const year = reference.getUTCFullYear();
  const current = reference.getUTCMonth();
  const shift =
    which.toLowerCase() === 'last' ? (month < current ? 0 : -1) : which.toLowerCase() === 'next' ? (month > current ? 0 : 1) : 0;
  return monthOf(year + shift, month);
}

/**
 * A season: of the year given; else "this" the reference year's (the winter begun the December before, in
 * January or February), "last" the one before the current or latest, "next" the one after; else the latest begun.
 */
function season(which: string | undefined, firstMonth: number, year: string | undefined, reference: Date): TimeSpan {
  const spanOf = (startYear: number): TimeSpan => ({
    start: Date.UTC(startYear, firstMonth, 1),
    end: Date.UTC(startYear, firstMonth + 3, 1),
  });
  if (year) return spanOf(Number(year));
  const now = reference.getTime();
  if (which === 'this') {
    // the season of the reference's year, as "this May" is its May: "this summer" said in April is the one ahead
    const previous = spanOf(reference.getUTCFullYear() - 1);
    return previous.end > now ? previous : spanOf(reference.getUTCFullYear());
  }
  let latest = spanOf(reference.getUTCFullYear());
  if (latest.start > now) latest = spanOf(reference.getUTCFullYear() - 1);
  if (which === 'next') return spanOf(new Date(latest.start).getUTCFullYear() + 1);
  if (which === 'last' && latest.end > now) return spanOf(new Date(latest.start).getUTCFullYear() - 1);
  return latest;
}

/** The Saturday of the latest weekend that began before the day of `at`. */
function lastWeekendStart(at: number): number {
  const next = weekendOf(at).start;
  return next >= dayOf(at).start ? next - 7 * DAY : next;
}

/** A question word for a time, opening the question ("Who gave… when she was younger" asks for a person). */
const ASKS_FOR_TIME =
  /^\W*(?:(?:and|so|then|in|on|at)\s+)?(?:when|what\s+(?:date|day|year|month|time)|which\s+(?:date|day|year|month)|how\s+long\s+ago|how\s+many\s+(?:days|weeks|months|years)(?:\s+\w+){0,3}\s+(?:ago|passed|between|since|before|after))\b/i;

/** The text asks for a time ("When did…", "What year…", "How long ago…", "How many weeks passed…"). */
export function asksForTime(text: string): boolean {
  return ASKS_FOR_TIME.test(text);
}
