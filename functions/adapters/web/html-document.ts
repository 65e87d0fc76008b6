/**
 * HTML parsing (linkedom) behind a small typed view of the DOM, and the visible text of an element with
 * its paragraph breaks. linkedom does not repair markup the way browsers do, so content outside <body>
 * (or a document without <html>) is moved into <body> here, where readability and text extraction look.
 */
import { DOMParser } from 'linkedom';

export interface DomNode {
  readonly nodeType: number;
  /** Upper-case for HTML elements (`P`), `#text` for text. */
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}

interface DomElement extends DomNode {
  getAttribute(name: string): string | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  appendChild(node: DomNode): DomNode;
}

export interface HtmlDocument {
  readonly documentElement: DomElement | null;
  readonly body: DomElement;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** A document for `html`, with everything outside <head> inside <body>. */
export function parseHtml(html: string): HtmlDocument {
  const markup = /<html[\s>]/i.test(html) ? html : `<html>${html.replace(/^\s*<!doctype[^>]*>/i, '')}</html>`;
  const document = new DOMParser().parseFromString(markup, 'text/html') as unknown as HtmlDocument;
  const root = document.documentElement;
  if (root) moveStraysIntoBody(root, document.body);
  return document;
}

/**
 * Elements nested deeper than this make a page unreadable here: Readability's work grows steeply with
 * depth (a second at 256, minutes at 2,000, a stack overflow at 5,000), and real pages stay far below.
 */
export const MAX_ELEMENT_DEPTH = 256;

/** How deep elements nest under `root` (its children are at depth 1), walked without recursion. */
export function elementDepth(root: { readonly childNodes: ArrayLike<DomNodeLike> }): number {
  let deepest = 0;
  const pending: Array<[node: { readonly childNodes: ArrayLike<DomNodeLike> }, depth: number]> = [[root, 0]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [node, depth] = item;
    deepest = Math.max(deepest, depth);
    for (let i = 0; i < node.childNodes.length; i += 1) {
      const child = node.childNodes[i];
      if (child && child.nodeType === ELEMENT_NODE) pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

interface DomNodeLike {
  readonly nodeType: number;
  readonly childNodes: ArrayLike<DomNodeLike>;
}

/** Elements that belong in <head>; left where they are when found outside it. */
const METADATA = new Set(['HEAD', 'TITLE', 'META', 'LINK', 'BASE', 'STYLE']);

function moveStraysIntoBody(root: DomElement, body: DomElement): void {
  const isStray = (node: DomNode): boolean => node !== body && !METADATA.has(node.nodeName.toUpperCase());
  const strays = Array.from(root.childNodes).filter(isStray);
  for (const node of strays) body.appendChild(node);
}

/** Elements whose text is never shown. */
const HIDDEN = new Set('SCRIPT STYLE NOSCRIPT TEMPLATE SVG CANVAS IFRAME OBJECT HEAD TITLE SELECT'.split(' '));

/** Elements that start a new paragraph. */
const BLOCKS = new Set(
  ('P DIV SECTION ARTICLE MAIN HEADER FOOTER NAV ASIDE H1 H2 H3 H4 H5 H6 UL OL LI DL DT DD TABLE TR ' +
    'BLOCKQUOTE PRE FIGURE FIGCAPTION FORM FIELDSET HR ADDRESS DETAILS SUMMARY CAPTION').split(' '),
);

/**
 * The text a reader sees in `root`: whitespace collapsed, one blank line between paragraphs, a line
 * break for <br>, cells of a row separated by a space. Walks without recursion (deep markup is common).
 */
export function visibleText(root: DomNode): string {
  const parts: string[] = [];
  const pending: (DomNode | string)[] = [root];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === undefined) break;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (item.nodeType === TEXT_NODE) parts.push(item.textContent ?? '');
    if (item.nodeType !== ELEMENT_NODE && item !== root) continue;
    const name = item.nodeName.toUpperCase();
    if (HIDDEN.has(name)) continue;
    if (name === 'BR') parts.push('\n');
    const separator = BLOCKS.has(name) ? '\n\n' : name === 'TD' || name === 'TH' ? ' ' : '';
    pending.push(separator);
    for (let i = item.childNodes.length - 1; i >= 0; i -= 1) {
      const child = item.childNodes[i];
      if (child) pending.push(child);
    }
    pending.push(separator);
  }
  return tidy(parts.join(''));
}

/** Collapses runs of spaces, trims lines, keeps at most one blank line in a row. */
function tidy(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
