/** Images and scanned PDFs through tesseract.js with the bundled English model (no download). */
import { afterAll, describe, expect, it } from 'vitest';
import { createTesseractOcr, type ExtractDeps, ExtractionError, extractText } from '../../functions/adapters/extract';
import { fixture, input, unusedSpeech } from './support/deps';
import { ffmpegMake } from './support/media';
import { buildScannedPdf } from './support/pdf';

const ocr = createTesseractOcr();
const deps: ExtractDeps = { ocr, speech: unusedSpeech };
const png = fixture('ocr-text.png');

afterAll(async () => {
  await ocr.close?.();
});

describe('OCR with tesseract.js', () => {
  it('reads the words rendered in a PNG', async () => {
    const result = await extractText(input(png, 'image', 'scan.png', 'image/png'), deps);
    expect(result.kind).toBe('image');
    expect(result.text).toContain('Knowledge memory stores facts');
    expect(result.text).toContain('Invoice number 4821 is overdue');
  });

  it('reads JPEG directly and converts GIF to PNG first', async () => {
    const jpeg = await ffmpegMake(['-i', '{in}', '-q:v', '2', '{out}'], 'image.jpg', png);
    const fromJpeg = await extractText(input(jpeg, 'image', 'photo.jpg'), deps);
    expect(fromJpeg.text).toContain('Invoice number 4821');

    const gif = await ffmpegMake(['-i', '{in}', '{out}'], 'image.gif', png);
    const fromGif = await extractText(input(gif, 'other', 'image.gif'), deps);
    expect(fromGif.text).toContain('Knowledge memory');
    expect(fromGif.warnings).toContain('image: converted from GIF to PNG for tesseract.js-7/eng');
  });

  it('OCRs the pages of a PDF that have no text layer', async () => {
    const result = await extractText(input(buildScannedPdf(png), 'document', 'scan.pdf'), deps);
    expect(result.kind).toBe('pdf');
    expect(result.text).toContain('Knowledge memory stores facts');
    expect(result.warnings).toContain('OCR read 1 of 1 page(s) that had no text layer (tesseract.js-7/eng)');
  });

  it('fails with a reason on an unreadable image', async () => {
    const truncated = png.slice(0, 120);
    const error = await extractText(input(truncated, 'image', 'broken.png'), deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toMatch(/the image is corrupt or unreadable/);
  });

  it('fails with a reason on an image without text, and keeps working afterwards', async () => {
    const blank = await ffmpegMake(['-f', 'lavfi', '-i', 'color=c=white:s=320x200', '-frames:v', '1', '{out}'], 'blank.png');
    const error = await extractText(input(blank, 'image', 'blank.png'), deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toBe('no text was recognised in the image');
    expect((await extractText(input(png, 'image', 'again.png'), deps)).text).toContain('4821');
  });
});
