/**
 * The date a document states for itself near its top ("Date: 2024-03-01", "Published: March 1, 2024",
 * "Last updated 1 March 2024"): a labelled date in its first few hundred characters, else none. Only a
 * labelled date counts, so a date the text merely mentions never becomes the document's.
 */
const LABEL = '(?:date|dated|published|publication date|posted|last updated|updated|last modified|effective(?: date)?|as of)';
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const ISO = new RegExp(String.raw`${LABEL}\s*[:\-–]?\s*(\d{4})-(\d{2})-(\d{2})\b`, 'i');
const MONTH_FIRST = new RegExp(String.raw`${LABEL}\s*[:\-–]?\s*${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'i');
const DAY_FIRST = new RegExp(String.raw`${LABEL}\s*[:\-–]?\s*(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\.?,?\s+(\d{4})\b`, 'i');
const HEAD_CHARACTERS = 400;

/** The document date stated at the top of `text` (ISO 8601, midnight UTC), or undefined. */
export function statedDocumentDate(text: string): string | undefined {
  const head = text.slice(0, HEAD_CHARACTERS);
  const iso = ISO.exec(head);
  if (iso) return utc(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  const monthFirst = MONTH_FIRST.exec(head);
  if (monthFirst) return utc(Number(monthFirst[3]), monthIndex(monthFirst[1] ?? ''), Number(monthFirst[2]));
  const dayFirst = DAY_FIRST.exec(head);
  if (dayFirst) return utc(Number(dayFirst[3]), monthIndex(dayFirst[2] ?? ''), Number(dayFirst[1]));
  return undefined;
}

function monthIndex(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase());
}

function utc(year: number, month: number, day: number): string | undefined {
  if (month < 0 || month > 11 || day < 1 || day > 31 || year < 1000) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  return date.getUTCMonth() === month ? date.toISOString() : undefined;
}
