/** Spans of time and the calendar arithmetic of time-expressions.ts and time-anchors.ts (all UTC). */

/** `[start, end)` in epoch milliseconds. */
export interface TimeSpan {
  start: number;
  end: number;
}

export const DAY = 86_400_000;

export const NUMBER_WORDS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

export interface RuleMatch {
  from: number;
  to: number;
  /** None: the wording is claimed but names no time ("for three months", "two weeks before the move"). */
  span?: TimeSpan;
}

export const dayOf = (at: number): TimeSpan => {
  const start = Math.floor(at / DAY) * DAY;
  return { start, end: start + DAY };
};

export const monthOf = (year: number, month: number): TimeSpan => ({ start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) });

export const yearOf = (year: number): TimeSpan => ({ start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) });

/** The weekend (Saturday and Sunday, UTC) holding `at`, or the one after it on a weekday. */
export function weekendOf(at: number): TimeSpan {
  const day = dayOf(at).start;
  const weekday = new Date(day).getUTCDay();
  const saturday = weekday === 0 ? day - DAY : day + (6 - weekday) * DAY;
  return { start: saturday, end: saturday + 2 * DAY };
}
