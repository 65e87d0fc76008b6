/**
 * OCR of PDF pages that have no text layer: each page is rendered to PNG with unpdf and
 * @napi-rs/canvas (offline, Node 20), then read by the injected OCR engine.
 */
import './pdf-runtime';
import { renderPageAsImage } from 'unpdf';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import type { OcrEngine, PdfOptions } from '../types';

type PdfSource = Extract<Parameters<typeof renderPageAsImage>[0], { numPages: number }>;

/** What OCR of a PDF's pages keeps to: the PDF options and the pixels one rendered page may have. */
export type PdfOcrOptions = PdfOptions & { maxPixels: number };

const DEFAULT_MAX_OCR_PAGES = 50;
const DEFAULT_RENDER_SCALE = 3;

/** Text by page number for the pages it could read; problems are added to `warnings`. */
export async function ocrPages(
  pdf: PdfSource,
  pageNumbers: number[],
  ocr: OcrEngine,
  options: PdfOcrOptions,
  warnings: string[],
): Promise<Map<number, string>> {
  const limit = options.maxOcrPages ?? DEFAULT_MAX_OCR_PAGES;
  const scale = options.ocrRenderScale ?? DEFAULT_RENDER_SCALE;
  const chosen = pageNumbers.slice(0, limit);
  const recognised = new Map<number, string>();
  if (!(await canvasAvailable(warnings))) return recognised;
  for (const pageNumber of chosen) {
    const image = await renderPage(pdf, pageNumber, { scale, maxPixels: options.maxPixels }, warnings);
    if (!image) continue;
    const text = await recognisePage(ocr, image, pageNumber, warnings);
    if (text !== null) recognised.set(pageNumber, text);
  }
  warnings.push(`OCR read ${recognised.size} of ${pageNumbers.length} page(s) that had no text layer (${ocr.name})`);
  if (pageNumbers.length > chosen.length) {
    warnings.push(`OCR skipped ${pageNumbers.length - chosen.length} page(s) past the limit of ${limit} per PDF`);
  }
  return recognised;
}

/**
 * The render scale of a page: `scale`, or less when the page would have more than `maxPixels` pixels at
 * that scale (a tiny PDF can declare a page of 15,000 x 15,000 points), noting the reduction.
 */
async function fittingScale(pdf: PdfSource, pageNumber: number, scale: number, maxPixels: number, warnings: string[]): Promise<number> {
  const { width, height } = (await pdf.getPage(pageNumber)).getViewport({ scale });
  const pixels = Math.ceil(width) * Math.ceil(height);
  if (pixels <= maxPixels) return scale;
  const fitted = scale * Math.sqrt(maxPixels / pixels) * 0.999;
  const size = `${Math.round(width / scale)} x ${Math.round(height / scale)} points`;
  warnings.push(
    `page ${pageNumber} is ${size}: rendered for OCR at ${(72 * fitted).toFixed(0)} dpi to stay under ${maxPixels.toLocaleString('en')} pixels`,
  );
  return fitted;
}

/** False, with a warning, when the canvas that pages are rendered on cannot be loaded. */
async function canvasAvailable(warnings: string[]): Promise<boolean> {
  try {
    await import('@napi-rs/canvas');
    return true;
  } catch (error) {
    warnings.push(`OCR unavailable: pages cannot be rendered to images (${describeError(error)})`);
    return false;
  }
}

/**
 * The page as PNG, or null with a warning when it cannot be rendered: the PDF is read with stopAtErrors,
 * so a page PDF.js cannot draw fails here instead of rendering blank.
 */
async function renderPage(
  pdf: PdfSource,
  pageNumber: number,
  size: { scale: number; maxPixels: number },
  warnings: string[],
): Promise<Uint8Array | null> {
  try {
    const scale = await fittingScale(pdf, pageNumber, size.scale, size.maxPixels, warnings);
    const png = await renderPageAsImage(pdf, pageNumber, { canvasImport: () => import('@napi-rs/canvas'), scale });
    return new Uint8Array(png);
  } catch (error) {
    warnings.push(`OCR failed on page ${pageNumber}: it could not be rendered to an image (${describeError(error)})`);
    return null;
  }
}

async function recognisePage(ocr: OcrEngine, png: Uint8Array, pageNumber: number, warnings: string[]): Promise<string | null> {
  try {
    return (await ocr.recognize({ bytes: png, format: 'png' })).text;
  } catch (error) {
    if (error instanceof ExtractionError && error.retryable) throw error; // a throttled service: retry the file later
    warnings.push(`OCR failed on page ${pageNumber}: ${describeError(error)}`);
    return null;
  }
}
