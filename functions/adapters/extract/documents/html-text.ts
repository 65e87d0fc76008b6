/**
 * A DOM subtree to readable text: block elements start new lines (paragraphs and headings a blank
 * line), table cells are tab-separated, `<pre>` keeps its spacing, scripts and styles are dropped.
 */

/** The part of a DOM node this module reads (linkedom's and the browser's nodes both fit). */
export interface DomNodeLike {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomNodeLike>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD']);
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

export function domToText(root: DomNodeLike): string {
  const writer = new TextWriter();
  walk(root, writer, false);
  return writer.toString();
}

function walk(node: DomNodeLike, writer: TextWriter, preformatted: boolean): void {
  if (node.nodeType === TEXT_NODE) {
    writer.write(node.nodeValue ?? '', preformatted);
    return;
  }
  if (node.nodeType !== ELEMENT_NODE && node.nodeType !== DOCUMENT_NODE && node.nodeType !== DOCUMENT_FRAGMENT_NODE)
    return;
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return;
  const breaks = PARAGRAPHS.has(name) ? 2 : LINES.has(name) ? 1 : 0;
  if (breaks) writer.requestBreak(breaks);
  if (name === 'TD' || name === 'TH') writer.separateCell();
  for (const child of Array.from(node.childNodes)) walk(child, writer, preformatted || name === 'PRE');
  if (breaks) writer.requestBreak(breaks);
}
