/**
 * PDF: the text layer of every page through unpdf (PDF.js); pages without one are rendered and OCR'd
 * (pdf-ocr.ts). Encrypted and corrupt files fail with a reason that says which.
 */
import './pdf-runtime';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { ExtractionError } from '../errors';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import { DEFAULT_EXTRACT_LIMITS, type Extracted, type ExtractLimits, type OcrEngine, type PdfOptions } from '../types';
import { ocrPages, type PdfOcrOptions } from './pdf-ocr';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page with fewer visible characters than this is treated as scanned. */
const MIN_TEXT_LAYER_CHARACTERS = 3;

export async function extractPdf(
  bytes: Uint8Array,
  ocr: OcrEngine,
  options: PdfOptions = {},
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<Extracted> {
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      const count = pdf.numPages.toLocaleString('en');
      throw new ExtractionError(`the PDF has ${count} pages, more than the ${limits.maxPdfPages.toLocaleString('en')} allowed`, {
        refused: true,
      });
    }
    const pages = await readTextLayer(pdf);
    const scanned = pages.flatMap((text, index) => (visibleLength(text) < MIN_TEXT_LAYER_CHARACTERS ? [index + 1] : []));
    const warnings: string[] = [];
    if (scanned.length > 0) {
      const recognised = await ocrScannedPages(bytes, scanned, ocr, { ...options, maxPixels: limits.maxPixels }, warnings);
      for (const [pageNumber, text] of recognised) pages[pageNumber - 1] = text;
    }
    const text = tidyText(pages.join('\n\n'));
    if (visibleLength(text) === 0) throw new ExtractionError(emptyReason(warnings));
    const title = await readTitle(pdf);
    return { text, kind: 'pdf', ...(title ? { title } : {}), warnings };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined); // releasing memory; nothing to report
  }
}

/**
 * OCR of the scanned pages, rendered from a second reading of the PDF that stops at errors: PDF.js would
 * otherwise skip what it cannot draw and hand over a blank page; this way such a page becomes a warning.
 */
async function ocrScannedPages(
  bytes: Uint8Array,
  pageNumbers: number[],
  ocr: OcrEngine,
  options: PdfOcrOptions,
  warnings: string[],
): Promise<Map<number, string>> {
  const strict = await openPdf(bytes, { stopAtErrors: true });
  try {
    return await ocrPages(strict, pageNumbers, ocr, options, warnings);
  } finally {
    await strict.loadingTask.destroy().catch(() => undefined);
  }
}

async function openPdf(bytes: Uint8Array, options: { stopAtErrors?: boolean } = {}): Promise<PdfDocument> {
  try {
    // PDF.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    return await getDocumentProxy(bytes.slice(), { verbosity: 0, ...options });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') {
      throw new ExtractionError('the PDF is encrypted (password-protected): remove the password and upload it again', {
        cause: error,
      });
    }
    throw new ExtractionError('the PDF is corrupt or unreadable', { cause: error });
  }
}

async function readTextLayer(pdf: PdfDocument): Promise<string[]> {
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text;
  } catch (error) {
    throw new ExtractionError('the PDF is corrupt: its pages could not be read', { cause: error });
  }
}

async function readTitle(pdf: PdfDocument): Promise<string | undefined> {
  try {
    const { info } = await getMeta(pdf);
    const title: unknown = info['Title'];
    return typeof title === 'string' && title.trim() ? title.trim() : undefined;
  } catch {
    return undefined; // a title is optional; damaged metadata does not spoil the text
  }
}

function emptyReason(warnings: string[]): string {
  const ocrProblem = warnings.find((warning) => /^OCR (unavailable|failed)/.test(warning));
  return ocrProblem
    ? `the PDF has no text layer and OCR did not help: ${ocrProblem}`
    : 'the PDF contains no text (no text layer, and OCR of its pages found none)';
}
