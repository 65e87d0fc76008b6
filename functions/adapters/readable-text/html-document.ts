/**
 * HTML parsing (linkedom) behind a small typed view of the DOM, for fetched pages and uploaded files
 * alike. linkedom does not repair markup the way browsers do, so content outside <body> (or a document
 * without <html>) is moved into <body> here, where readability and text extraction look. A document
 * nested deeper than MAX_ELEMENT_DEPTH is refused (HtmlTooDeepError) before anything walks it.
 */
import { DOMParser } from 'linkedom';
import { InternalError } from '../../core/errors';

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

const ELEMENT_NODE = 1;

/** A document for `html`, with everything outside <head> inside <body>. Throws HtmlTooDeepError. */
export function parseHtml(html: string): HtmlDocument {
  const markup = /<html[\s>]/i.test(html) ? html : `<html>${html.replace(/^\s*<!doctype[^>]*>/i, '')}</html>`;
  const document = new DOMParser().parseFromString(markup, 'text/html') as unknown as HtmlDocument;
  const root = document.documentElement;
  if (!root) return document;
  const depth = elementDepth(root);
  if (depth > MAX_ELEMENT_DEPTH) throw new HtmlTooDeepError(depth);
  moveStraysIntoBody(root, document.body);
  return document;
}

/** A page nested too deep to read safely; each caller words it as its own error (a file's, a fetch's). */
export class HtmlTooDeepError extends InternalError {
  override readonly name: string = 'HtmlTooDeepError';

  constructor(readonly depth: number) {
    super(`the HTML page nests its elements ${depth} deep, more than the ${MAX_ELEMENT_DEPTH} that can be read safely`);
  }
}

/**
 * Elements nested deeper than this make a page unreadable here: Readability's work grows steeply with
 * depth (a second at 256, minutes at 2,000, a stack overflow at 5,000), and real pages stay far below.
 */
export const MAX_ELEMENT_DEPTH = 256;

/** How deep elements nest under `root` (its children are at depth 1), walked without recursion. */
function elementDepth(root: DomNode): number {
  let deepest = 0;
  const pending: Array<[node: DomNode, depth: number]> = [[root, 0]];
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

/** Elements that belong in <head>; left where they are when found outside it. */
const METADATA = new Set(['HEAD', 'TITLE', 'META', 'LINK', 'BASE', 'STYLE']);

function moveStraysIntoBody(root: DomElement, body: DomElement): void {
  const isStray = (node: DomNode): boolean => node !== body && !METADATA.has(node.nodeName.toUpperCase());
  const strays = Array.from(root.childNodes).filter(isStray);
  for (const node of strays) body.appendChild(node);
}
