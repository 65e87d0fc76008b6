/**
 * Files that are text at heart: decoded with charset handling (BOMs, declared charsets, UTF-8, UTF-16,
 * Windows-1252), then handled as HTML, RTF, Markdown or plain text (.txt, .csv, .json and the like).
 */
import { ExtractionError } from '../errors';
import { charsetOf, decodeText } from '../../readable-text/charset';
import { textFlavour } from '../text-flavour';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import { DEFAULT_EXTRACT_LIMITS, type Extracted, type ExtractInput, type ExtractLimits } from '../types';
import { extractHtml } from './html';
import { extractOffice } from './office';

export async function extractTextDocument(input: ExtractInput, limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS): Promise<Extracted> {
  const { text: decoded, encoding } = decodeText(input.bytes, { declaredCharset: charsetOf(input.contentType) });
  const flavour = textFlavour(decoded, { name: input.name, contentType: input.contentType });
  if (flavour === 'html') return extractHtml(decoded, limits);
  if (flavour === 'svg') throw new ExtractionError('SVG images are not supported: convert it to PNG to have its text read');
  if (flavour === 'rtf') return extractOffice(new TextEncoder().encode(decoded), 'rtf');
  if (flavour === 'markdown') return extractMarkdown(decoded);
  const text = tidyText(decoded);
  if (visibleLength(text) === 0) throw new ExtractionError('the text file is empty (it holds only blank space)');
  const warnings = encoding === 'utf-8' ? [] : [`text: decoded as ${encoding}`];
  return { text, kind: 'text', warnings };
}

async function extractMarkdown(markdown: string): Promise<Extracted> {
  const extracted = await extractOffice(new TextEncoder().encode(markdown), 'markdown');
  const heading = markdown.match(/^#\s+(.+?)\s*#*\s*$/m)?.[1];
  return extracted.title || !heading ? extracted : { ...extracted, title: heading };
}
