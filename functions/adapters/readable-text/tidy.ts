/**
 * Tidies extracted text, whatever it came from (a page, a PDF, an OCR pass, a transcript): one newline
 * convention, no control characters, no-break spaces as spaces, no trailing spaces, at most one blank
 * line in a row, no leading or trailing blank space. (Entity names are normalised into matching keys
 * elsewhere, by functions/engine/graph/normalize.ts: a different concern, hence a different name.)
 */

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFEFF]/g;

export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL_CHARACTERS, '')
    .replace(/\u00A0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Non-blank characters, to tell an empty result from a short one. */
export function visibleLength(text: string): number {
  return text.replace(/\s+/g, '').length;
}
