/**
 * The one HTML-to-text pipeline, for a page fetched by address (functions/adapters/web/page.ts: `website`
 * files, sitemaps, crawls) and an uploaded or fetched HTML file (functions/adapters/extract/documents/
 * html.ts), so the same page gives the same text whichever way it came in:
 *
 * 1. bytes to a string by the one charset decoder (./charset.ts), then parseHtml (./html-document.ts:
 *    fragments repaired, over-deep nesting refused);
 * 2. the whole body's text (./html-text.ts), read before Readability rewrites the document;
 * 3. the main-content rule: Mozilla Readability's article (its default 500-character threshold, its
 *    content serialised straight to text by the same writer) is kept when it holds at least a fifth of
 *    the body's visible text or 500 visible characters; otherwise the whole body is kept, with a warning,
 *    because an article that small is usually a caption or a teaser Readability mistook for the page;
 * 4. the text tidied (./tidy.ts); the title is the article's, else <title>, og:title or the first <h1>.
 *
 * Where the two copies this replaces differed, the rules that keep more of what a reader sees won: the
 * extractor's share rule over the fetcher's "any article at all" (with a lower 200-character threshold);
 * the extractor's writer (blank lines around paragraphs, single lines for list items and rows, cells
 * tab-separated, <pre> kept) over the fetcher's (a blank line after every block, cells space-separated,
 * <pre> collapsed); the fetcher's parsing (fragments and strays moved into <body>) and its title chain.
 */
import { Readability } from '@mozilla/readability';
import type { HtmlDocument } from './html-document';
import { domToText } from './html-text';
import { tidyText, visibleLength } from './tidy';

/** Readability's article is used when it keeps at least this share of the page's text, or a long article. */
const MIN_ARTICLE_SHARE = 0.2;
const LONG_ARTICLE_CHARACTERS = 500;

export interface HtmlReading {
  /** The main content, paragraphs separated by a blank line; '' when the page shows no text. */
  text: string;
  /** The article title, else <title>, else og:title, else the first heading; undefined when none. */
  title: string | undefined;
  /** Where `text` came from: Readability's article, or the whole body. */
  extractedBy: 'readability' | 'body';
  /** What a person may want to know (the article could not be told from the page). */
  warnings: string[];
}

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

/** The main text and title of a parsed document. Readability rewrites `document`: read anything else first. */
export function readHtml(document: HtmlDocument): HtmlReading {
  const fallbackTitle = plainTitle(document);
  const bodyText = tidyText(domToText(document.body));
  const article = readArticle(document);
  const title = article?.title || fallbackTitle;
  const articleLength = article ? visibleLength(article.text) : 0;
  if (article && articleLength > 0) {
    const share = articleLength / Math.max(1, visibleLength(bodyText));
    if (share >= MIN_ARTICLE_SHARE || articleLength >= LONG_ARTICLE_CHARACTERS) {
      return { text: article.text, title, extractedBy: 'readability', warnings: [] };
    }
    const warning = 'HTML: the main article could not be told from the page; the whole page text was kept';
    return { text: bodyText, title, extractedBy: 'body', warnings: [warning] };
  }
  return { text: bodyText, title, extractedBy: 'body', warnings: [] };
}

function readArticle(document: HtmlDocument): { text: string; title: string | undefined } | null {
  const reader = new Readability(document as unknown as ReadabilityDocument, {
    serializer: (node) => domToText(node as unknown as Parameters<typeof domToText>[0]),
  });
  let article: ReturnType<typeof reader.parse>;
  try {
    article = reader.parse();
  } catch {
    return null; // Readability gives up on some markup; the whole-body text still stands
  }
  if (!article?.content) return null;
  return { text: tidyText(article.content), title: article.title?.replace(/\s+/g, ' ').trim() || undefined };
}

function plainTitle(document: HtmlDocument): string | undefined {
  for (const selector of ['title', 'meta[property="og:title"]', 'h1']) {
    const element = document.querySelector(selector);
    const text = (element?.getAttribute('content') ?? element?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text) return text;
  }
  return undefined;
}
