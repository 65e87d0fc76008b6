/**
 * Real scans on every supported Node: pages that are pictures (Flate-compressed RGB as ReportLab and
 * scanners write PNGs, or DCT/JPEG), on pages that also set a font, as ReportLab's do, are rendered and
 * read back by OCR; a page that cannot be rendered is a warning, not a blank page.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTesseractOcr, extractText } from '../../functions/adapters/extract';
import { buildScan } from './support/scans';
import { documentDeps, input, wordRecall } from './support/deps';

const ocr = createTesseractOcr();
afterAll(() => ocr.close?.());

const LINES = ['The quarterly harvest report', 'lists seven orchards by the river'];

describe('scanned PDFs', () => {
  it.each(['flate-rgb', 'dct-jpeg'] as const)(
    'reads back the words of a %s scan',
    async (encoding) => {
      const pdf = await buildScan(LINES, encoding);
      const result = await extractText(input(pdf, 'document', `scan-${encoding}.pdf`), { ...documentDeps, ocr });
      expect(wordRecall(result.text, LINES.join(' '))).toBeGreaterThanOrEqual(0.9);
      expect(result.warnings).toContain('OCR read 1 of 1 page(s) that had no text layer (tesseract.js-7/eng)');
    },
    60_000,
  );

  it('turns a page that cannot be rendered into a warning on the file', async () => {
    const good = Buffer.from(await buildScan(LINES, 'flate-rgb'));
    // Damage the picture's compressed data: PDF.js can no longer draw the page.
    const text = good.toString('latin1');
    const image = text.indexOf('/Subtype /Image');
    const stream = text.indexOf('stream\n', image) + 'stream\n'.length;
    good.fill(0x41, stream, stream + 400);
    const error = await extractText(input(new Uint8Array(good), 'document', 'damaged.pdf'), { ...documentDeps, ocr }).catch(
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^the PDF has no text layer and OCR did not help: OCR failed on page 1: it could not be rendered to an image \(/,
    );
  }, 60_000);
});
