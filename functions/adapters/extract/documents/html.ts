/**
 * HTML: the main text of the page (Mozilla Readability over a linkedom DOM), falling back to the whole
 * body when Readability keeps too little of it; the title from the article or `<title>`.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { ExtractionError } from '../errors';
import { normaliseText, visibleLength } from '../text/normalise';
import { elementDepth, MAX_ELEMENT_DEPTH } from '../../web/html-document';
import { formatBytes } from '../limits';
import { DEFAULT_EXTRACT_LIMITS, type Extracted, type ExtractLimits } from '../types';
import { domToText, type DomNodeLike } from './html-text';

/** Readability's article is used when it keeps at least this share of the page's text, or a long article. */
const MIN_ARTICLE_SHARE = 0.2;
const LONG_ARTICLE_CHARACTERS = 500;

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

export function extractHtml(html: string, limits: Pick<ExtractLimits, 'maxHtmlBytes'> = DEFAULT_EXTRACT_LIMITS): Extracted {
  const size = Buffer.byteLength(html);
  if (size > limits.maxHtmlBytes) {
    throw new ExtractionError(
      `the HTML page is ${formatBytes(size)}, more than the ${formatBytes(limits.maxHtmlBytes)} that can be read safely`,
      { refused: true },
    );
  }
  const wholePage = pageText(html);
  const article = readArticle(html);
  const warnings: string[] = [];
  let text = wholePage.text;
  if (article && visibleLength(article.text) > 0) {
    const share = visibleLength(article.text) / Math.max(1, visibleLength(wholePage.text));
    if (share >= MIN_ARTICLE_SHARE || visibleLength(article.text) >= LONG_ARTICLE_CHARACTERS) text = article.text;
    else warnings.push('HTML: the main article could not be told from the page; the whole page text was kept');
  }
  text = normaliseText(text);
  if (visibleLength(text) === 0) throw new ExtractionError('the HTML page contains no text');
  const title = article?.title || wholePage.title;
  return { text, kind: 'html', ...(title ? { title } : {}), warnings };
}

interface PageText {
  text: string;
  title: string | undefined;
}

function pageText(html: string): PageText {
  const { document } = parseHTML(html);
  const depth = document.documentElement ? elementDepth(document.documentElement) : 0;
  if (depth > MAX_ELEMENT_DEPTH) {
    throw new ExtractionError(`the HTML page nests its elements ${depth} deep, more than the ${MAX_ELEMENT_DEPTH} that can be read safely`, {
      refused: true,
    });
  }
  const body = (document.body ?? document.documentElement) as unknown as DomNodeLike | null;
  const title = document.title?.trim() || undefined;
  return { text: body ? domToText(body) : '', title };
}

function readArticle(html: string): PageText | null {
  const { document } = parseHTML(html);
  const reader = new Readability(document as unknown as ReadabilityDocument, {
    serializer: (node) => domToText(node as unknown as DomNodeLike),
  });
  let article: ReturnType<typeof reader.parse>;
  try {
    article = reader.parse();
  } catch {
    return null; // Readability gives up on some markup; the whole-page text still stands
  }
  if (!article?.content) return null;
  return { text: article.content, title: article.title?.trim() || undefined };
}
