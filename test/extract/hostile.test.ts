/**
 * Small files that explode: each extractor is bounded by what the file really holds (inflated bytes,
 * pages, pixels, decoded seconds, nesting), and fails with a reason a person understands, quickly.
 */
import { describe, expect, it } from 'vitest';
import { ExtractionError, type ExtractLimits, extractText, type OcrEngine, type OcrImage } from '../../functions/adapters/extract';
import { imageSize } from '../../functions/adapters/extract/images/image-size';
import { FetchError } from '../../functions/adapters/web/errors';
import { readPage } from '../../functions/adapters/web/page';
import { deepHtml, giantPagePdf, largeHtml, longToneOpus, manyPagePdf, pixelBombPng, zipBombDocx } from '../support/hostile-files';
import { documentDeps, input } from './support/deps';

async function refusal(limits: Partial<ExtractLimits>, ...args: Parameters<typeof input>): Promise<ExtractionError> {
  const started = performance.now();
  const error = await extractText(input(...args), { ...documentDeps, limits }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ExtractionError);
  expect((error as ExtractionError).retryable).toBe(false);
  expect(performance.now() - started).toBeLessThan(10_000);
  return error as ExtractionError;
}

describe('hostile files', () => {
  it('refuses a DOCX whose parts really inflate a thousand times, whatever its ZIP headers declare', async () => {
    const bomb = Buffer.from(zipBombDocx(40));
    expect(bomb.length).toBeLessThan(200 * 1024);
    // The central directory lies: every entry declares 100 bytes.
    for (let at = bomb.indexOf('PK\x01\x02'); at >= 0; at = bomb.indexOf('PK\x01\x02', at + 4)) bomb.writeUInt32LE(100, at + 24);
    const error = await refusal({}, new Uint8Array(bomb), 'document', 'bomb.docx');
    expect(error.message).toMatch(/expand more than 100 times .* ZIP bomb/);
    const total = await refusal({ maxUnzippedBytes: 1024 * 1024, maxZipRatio: 10_000 }, new Uint8Array(bomb), 'document', 'bomb.docx');
    expect(total.message).toBe("the file's compressed parts expand to more than 1 MB, too large to extract safely (a ZIP bomb?)");
  });

  it('still reads an honest DOCX', async () => {
    const honest = await extractText(input(zipBombDocx(0.05), 'document', 'ok.docx'), documentDeps);
    expect(honest.text).toContain('all work and no play');
  });

  it('refuses a PDF of more pages than allowed before reading them', async () => {
    const error = await refusal({}, manyPagePdf(2_500), 'document', 'pages.pdf');
    expect(error.message).toBe('the PDF has 2,500 pages, more than the 2,000 allowed');
  });

  it('renders a giant scanned page for OCR within the pixel limit, and says so', async () => {
    const seen: OcrImage[] = [];
    const ocr: OcrEngine = {
      name: 'recording-ocr',
      formats: new Set(['png']),
      recognize: async (image) => {
        seen.push(image);
        return { text: 'read from the scaled page' };
      },
    };
    const result = await extractText(input(giantPagePdf(15_000), 'document', 'wall.pdf'), {
      ...documentDeps,
      ocr,
      limits: { maxPixels: 2_000_000 },
    });
    expect(result.text).toBe('read from the scaled page');
    const size = imageSize(seen[0]?.bytes ?? new Uint8Array(), 'png');
    expect((size?.width ?? 0) * (size?.height ?? 0)).toBeLessThanOrEqual(2_000_000);
    expect(result.warnings).toContainEqual(expect.stringMatching(/^page 1 is 15000 x 15000 points: rendered for OCR at \d+ dpi/));
  });

  it('refuses an image whose header asks for more pixels than allowed, before decoding it', async () => {
    const error = await refusal({}, pixelBombPng(15_000), 'image', 'bomb.png');
    expect(error.message).toBe('the image is 15000 x 15000 pixels (225 megapixels), more than the 25 megapixels that can be read safely');
  });

  it('refuses audio longer than allowed, decoding no more than the limit', async () => {
    const tone = await longToneOpus(90);
    const error = await refusal({ maxMediaSeconds: 60 }, tone, 'audio', 'long.ogg', 'audio/ogg');
    expect(error.message).toBe('the audio lasts more than a minute, the longest transcribed');
  });

  it('refuses an HTML file larger than can be parsed safely', async () => {
    const error = await refusal({}, new TextEncoder().encode(largeHtml(6)), 'text', 'big.html', 'text/html');
    expect(error.message).toBe('the HTML page is 6 MB, more than the 5 MB that can be read safely');
  });

  it('refuses HTML nested thousands deep, as a file and as a web page, with a reason', async () => {
    const html = deepHtml(5_000);
    const error = await refusal({}, new TextEncoder().encode(html), 'text', 'deep.html', 'text/html');
    expect(error.message).toBe('the HTML page nests its elements 5001 deep, more than the 256 that can be read safely');
    const started = performance.now();
    const webError = (() => {
      try {
        readPage(html, 'https://deep.example/page');
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(webError).toBeInstanceOf(FetchError);
    expect(webError).toMatchObject({ reason: 'unreadable', retryable: false });
    expect((webError as Error).message).toMatch(/^https:\/\/deep\.example\/page nests its elements \d+ deep, more than the 256/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
