/**
 * A cheap test that a text could hold something chrono-node's English casual parser reads as a date or
 * time, run before the parser (time-expressions.ts): a query is analysed for times on every search, and
 * most name none. Exact in one direction: every text chrono finds a date or time in passes; a text that
 * fails holds none, so skipping the parser changes nothing. Texts that pass may still hold none.
 *
 * Why it is exact (chrono-node 2.x, locales/en and the common parsers it includes): every parser's match
 * holds one of
 * - a digit (ISO, slash and year-month-day dates, clock times, years, numbered durations);
 * - a month or weekday name, whose dictionary forms all begin with the three letters listed ("sept.",
 *   "thurs"), or "weekend"/"weekday";
 * - a casual word (now, today, tonight, tomorrow, overmorrow, tmr, yesterday, last night, morning,
 *   afternoon, evening, night, midnight, midday, noon; "end of the month");
 * - a time unit after a number word or a modifier ("a few hours ago", "next week", "in an h"): a unit
 *   written out (second, minute, hour, day, week, month, quarter, year) is matched anywhere; an
 *   abbreviated one (s, m, h, d, w, mo, yr…) only right after what can end chrono's number pattern or a
 *   modifier (one…twelve, a/an at a word end, half, few, several, the, couple, of, this, last, past,
 *   next), and followed by what chrono allows after a unit: a non-letter, or (after spaces) a word that
 *   ends the expression (ago, later, after…) or starts another counted unit.
 * Every word is matched as a substring, case-insensitively, with no word boundary: chrono's boundaries and
 * prefixes ("inmay" reads as May) only ever narrow what it matches. test/unit/text/time-words.test.ts
 * checks this against chrono over SciFact claims, LoCoMo questions and conversations, chrono's own
 * example phrases and random texts built from its vocabulary.
 */

const NAMES = 'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat|week';
const CASUAL_WORDS = 'now|today|tonight|morrow|tmr|yesterday|night|morning|afternoon|evening|midday|noon';
const UNIT_WORDS = 'second|minute|hour|day|month|quarter|year';
/** What chrono's number pattern (or a relative modifier before a unit) can end with. */
const NUMBER_ENDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half\\s*an?|half|few|several|the|a?\\s*couple|of|this|last|past|next|an?(?![a-z0-9_])';
const UNIT_ABBREVIATIONS = 's|sec|m|min|mins|h|hr|hrs|d|w|mo|mon|mos|qtr|y|yr';
/** What may follow a unit inside a match: the words ending an expression, or the start of another counted unit. */
const AFTER_UNIT = `ago|before|earlier|later|after|from|henceforth|forward|out|and|${NUMBER_ENDS}`;

const MAY_NAME_TIME = new RegExp(
  `[0-9]|${NAMES}|${CASUAL_WORDS}|${UNIT_WORDS}|(?:${NUMBER_ENDS})\\s*(?:${UNIT_ABBREVIATIONS})(?:(?![a-z])|\\s*(?:${AFTER_UNIT}))`,
  'i',
);

/** Whether chrono-node's English casual parser could find a date or time in `text` (false: it finds none). */
export function mayNameTime(text: string): boolean {
  return MAY_NAME_TIME.test(text);
}
