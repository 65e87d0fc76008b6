/**
 * Images: OCR through the injected engine, after converting formats the engine cannot read to PNG
 * with ffmpeg. An image without readable text is a failure with a reason, not an empty result.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import { FFMPEG_QUIET, runProcess, withFfmpegInput } from '../media/ffmpeg';
import { limitsOf } from '../limits';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import { imageSize } from './image-size';
import type { ExtractDeps, Extracted, ImageFormat, MediaToolOptions, OcrImage } from '../types';

/** Below this mean confidence (0-100) the text is kept with a warning. */
const LOW_CONFIDENCE = 50;

export async function extractImage(bytes: Uint8Array, format: ImageFormat, deps: ExtractDeps): Promise<Extracted> {
  assertPixelsBounded(bytes, format, limitsOf(deps).maxPixels);
  const warnings: string[] = [];
  let image: OcrImage = { bytes, format };
  if (!deps.ocr.formats.has(format)) {
    image = { bytes: await convertToPng(bytes, deps.media ?? {}), format: 'png' };
    warnings.push(`image: converted from ${format.toUpperCase()} to PNG for ${deps.ocr.name}`);
  }
  const result = await recognise(deps, image);
  const text = tidyText(result.text);
  if (visibleLength(text) === 0) throw new ExtractionError('no text was recognised in the image');
  if (result.confidence !== undefined && result.confidence < LOW_CONFIDENCE) {
    warnings.push(`image: OCR confidence is low (${Math.round(result.confidence)}%); the text may hold errors`);
  }
  return { text, kind: 'image', warnings };
}

function assertPixelsBounded(bytes: Uint8Array, format: ImageFormat, maxPixels: number): void {
  const size = imageSize(bytes, format);
  if (!size || size.width * size.height <= maxPixels) return;
  const megapixels = ((size.width * size.height) / 1e6).toFixed(0);
  throw new ExtractionError(
    `the image is ${size.width} x ${size.height} pixels (${megapixels} megapixels), more than the ` +
      `${(maxPixels / 1e6).toFixed(0)} megapixels that can be read safely`,
    { refused: true },
  );
}

async function recognise(deps: ExtractDeps, image: OcrImage): ReturnType<ExtractDeps['ocr']['recognize']> {
  try {
    return await deps.ocr.recognize(image);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`OCR (${deps.ocr.name}) failed: ${describeError(error)}`, { cause: error });
  }
}

/** The first frame of an image as PNG, through ffmpeg. */
function convertToPng(bytes: Uint8Array, options: MediaToolOptions): Promise<Uint8Array> {
  return withFfmpegInput(bytes, 'image', options.ffmpegPath, async ({ ffmpeg, input, directory }) => {
    const output = join(directory, 'image.png');
    const args = [...FFMPEG_QUIET, '-i', input, '-frames:v', '1', '-c:v', 'png', '-f', 'image2', output];
    const { exitCode } = await runProcess(ffmpeg, args, { timeoutMs: options.timeoutMs, label: 'ffmpeg' });
    if (exitCode !== 0) throw new ExtractionError('the image is corrupt or unreadable');
    return new Uint8Array(await readFile(output));
  });
}
