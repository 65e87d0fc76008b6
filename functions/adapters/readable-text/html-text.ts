/**
 * A DOM subtree to readable text, for fetched pages and uploaded HTML alike: paragraphs, headings, lists
 * as a whole, tables and quotes are set off by a blank line; other blocks (divs, list items, table rows,
 * <br>) start a new line; table cells are tab-separated; `<pre>` keeps its spacing; what is never shown
 * (scripts, styles, <head>, <title>, form selects, embedded objects) is dropped. Recursion is safe:
 * parseHtml refuses documents nested deeper than MAX_ELEMENT_DEPTH.
 */
import type { DomNode } from './html-document';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

const SKIPPED = new Set('SCRIPT STYLE NOSCRIPT TEMPLATE SVG CANVAS IFRAME OBJECT HEAD TITLE SELECT'.split(' '));
const PARAGRAPHS = new Set('P H1 H2 H3 H4 H5 H6 BLOCKQUOTE PRE TABLE UL OL DL FIGURE'.split(' '));
const LINES = new Set([
  ...'DIV SECTION ARTICLE MAIN HEADER FOOTER ASIDE NAV LI TR DT DD'.split(' '),
  ...'FIGCAPTION ADDRESS HR FORM FIELDSET DETAILS SUMMARY CAPTION BR'.split(' '),
]);

/** Collects text; line breaks are requested, and only the largest pending request is written. */
class TextWriter {
  private readonly parts: string[] = [];
  private pendingBreaks = 0;
  private atLineStart = true;

  requestBreak(newlines: number): void {
    this.pendingBreaks = Math.max(this.pendingBreaks, newlines);
  }

  write(text: string, preformatted: boolean): void {
    const content = preformatted ? text : text.replace(/\s+/g, ' ');
    if (!preformatted && content.trim() === '' && (this.atLineStart || this.pendingBreaks > 0)) return;
    if (this.pendingBreaks > 0 && this.parts.length > 0) this.parts.push('\n'.repeat(this.pendingBreaks));
    if (this.pendingBreaks > 0) this.atLineStart = true;
    this.pendingBreaks = 0;
    const written = this.atLineStart && !preformatted ? content.trimStart() : content;
    this.parts.push(written);
    this.atLineStart = written.endsWith('\n');
  }

  /** A tab between table cells of one row (none before the first). */
  separateCell(): void {
    if (!this.atLineStart && this.pendingBreaks === 0) this.parts.push('\t');
  }

  toString(): string {
    return this.parts
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .trim();
  }
}

export function domToText(root: DomNode): string {
  const writer = new TextWriter();
  walk(root, writer, false);
  return writer.toString();
}

function walk(node: DomNode, writer: TextWriter, preformatted: boolean): void {
  if (node.nodeType === TEXT_NODE) {
    writer.write(node.textContent ?? '', preformatted);
    return;
  }
  if (node.nodeType !== ELEMENT_NODE && node.nodeType !== DOCUMENT_NODE && node.nodeType !== DOCUMENT_FRAGMENT_NODE) return;
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return;
  const breaks = PARAGRAPHS.has(name) ? 2 : LINES.has(name) ? 1 : 0;
  if (breaks) writer.requestBreak(breaks);
  if (name === 'TD' || name === 'TH') writer.separateCell();
  for (const child of Array.from(node.childNodes)) walk(child, writer, preformatted || name === 'PRE');
  if (breaks) writer.requestBreak(breaks);
}
