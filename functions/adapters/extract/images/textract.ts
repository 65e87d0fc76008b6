/**
 * Amazon Textract as an OCR engine: DetectDocumentText on the image bytes, the text of its LINE
 * blocks in reading order. Textract reads PNG, JPEG and TIFF up to 10 MB.
 */
import type { TextractClient } from '@aws-sdk/client-textract';
import { ExtractionError, serviceError } from '../errors';
import type { ImageFormat, OcrEngine, OcrImage, OcrResult } from '../types';

export interface TextractOptions {
  client: TextractClient;
}

const MAX_BYTES = 10 * 1024 * 1024;
/** The engine's name, recorded as the adapter that built a memory. */
export const TEXTRACT_NAME = 'amazon-textract';
/** The image formats Textract reads; others are converted to PNG first. */
export const TEXTRACT_FORMATS: ReadonlySet<ImageFormat> = new Set<ImageFormat>(['png', 'jpeg', 'tiff']);
const BAD_INPUT = new Set([
  'UnsupportedDocumentException',
  'BadDocumentException',
  'InvalidParameterException',
  'DocumentTooLargeException',
]);

export function createTextractOcr(options: TextractOptions): OcrEngine {
  return {
    name: TEXTRACT_NAME,
    formats: TEXTRACT_FORMATS,
    async recognize(image: OcrImage): Promise<OcrResult> {
      if (image.bytes.byteLength > MAX_BYTES) {
        throw new ExtractionError('the image is larger than the 10 MB Amazon Textract reads at once', { refused: true });
      }
      let output;
      try {
        const { DetectDocumentTextCommand } = await import('@aws-sdk/client-textract'); // loaded at first use
        output = await options.client.send(new DetectDocumentTextCommand({ Document: { Bytes: image.bytes } }));
      } catch (error) {
        if (error instanceof Error && BAD_INPUT.has(error.name)) {
          throw new ExtractionError(`Amazon Textract could not read the image (${error.name}): it is corrupt or in an unsupported format`, {
            cause: error,
          });
        }
        throw serviceError('Amazon Textract', 'read the image', error);
      }
      const lines = (output.Blocks ?? []).filter((block) => block.BlockType === 'LINE' && block.Text);
      const confidences = lines.map((line) => line.Confidence ?? 0);
      return {
        text: lines.map((line) => line.Text).join('\n'),
        ...(confidences.length > 0 ? { confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length } : {}),
      };
    },
  };
}
