/**
 * HTML files: the one HTML-to-text pipeline of functions/adapters/readable-text/html-reader.ts (the same one a page
 * fetched by address goes through), behind the extraction limits: a page larger than `maxHtmlBytes` or
 * nested too deep is refused with a reason.
 */
import { type HtmlDocument, HtmlTooDeepError, parseHtml } from '../../readable-text/html-document';
import { readHtml } from '../../readable-text/html-reader';
import { visibleLength } from '../../readable-text/tidy';
import { formatBytes } from '../../wording';
import { ExtractionError } from '../errors';
import { DEFAULT_EXTRACT_LIMITS, type Extracted, type ExtractLimits } from '../types';

export function extractHtml(html: string, limits: Pick<ExtractLimits, 'maxHtmlBytes'> = DEFAULT_EXTRACT_LIMITS): Extracted {
  const size = Buffer.byteLength(html);
  if (size > limits.maxHtmlBytes) {
    throw new ExtractionError(
      `the HTML page is ${formatBytes(size)}, more than the ${formatBytes(limits.maxHtmlBytes)} that can be read safely`,
      { refused: true },
    );
  }
  const { text, title, warnings } = readHtml(parsed(html));
  if (visibleLength(text) === 0) throw new ExtractionError('the HTML page contains no text');
  return { text, kind: 'html', ...(title ? { title } : {}), warnings };
}

function parsed(html: string): HtmlDocument {
  try {
    return parseHtml(html);
  } catch (error) {
    if (error instanceof HtmlTooDeepError) throw new ExtractionError(error.message, { refused: true, cause: error });
    throw error;
  }
}
