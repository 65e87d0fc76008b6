/**
 * The offline OCR engine: tesseract.js (WebAssembly) with the English LSTM model that the
 * @tesseract.js-data/eng package ships, read from node_modules (no download, no cache written).
 * One worker is started at first use and kept for later images, until `close`; tesseract.js itself is
 * imported then too.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import type { ImageFormat, OcrEngine, OcrImage, OcrResult } from '../types';

export interface TesseractOptions {
  /** Directory holding `<language>.traineddata.gz` (default the @tesseract.js-data/eng package's LSTM model). */
  langPath?: string;
  /** Tesseract language code (default `eng`). */
  language?: string;
}

const LSTM_ONLY = 1;
const FORMATS: ReadonlySet<ImageFormat> = new Set<ImageFormat>(['png', 'jpeg', 'bmp', 'tiff']);

function bundledEnglishModelPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(packageJson), '4.0.0_best_int');
}

export function createTesseractOcr(options: TesseractOptions = {}): OcrEngine {
  const language = options.language ?? 'eng';
  let worker: Promise<Tesseract.Worker> | null = null;

  // loaded at first use: importing the worker costs nothing for files that need no OCR
  const start = async (): Promise<Tesseract.Worker> =>
    (await import('tesseract.js')).default.createWorker(language, LSTM_ONLY, {
      langPath: options.langPath ?? bundledEnglishModelPath(),
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job inside its message listener, crashing the process.
      errorHandler: () => undefined,
    });

  const close = async (): Promise<void> => {
    const current = worker;
    worker = null;
    if (current) await current.then((w) => w.terminate()).catch(() => undefined); // already gone
  };

  return {
    name: `tesseract.js-7/${language}`,
    formats: FORMATS,
    async recognize(image: OcrImage): Promise<OcrResult> {
      worker ??= start();
      let instance: Tesseract.Worker;
      try {
        instance = await worker;
      } catch (error) {
        worker = null;
        throw new ExtractionError(`the OCR engine could not start: ${describeError(error)}`, { cause: error });
      }
      try {
        const { data } = await instance.recognize(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
        return { text: data.text, confidence: data.confidence };
      } catch (error) {
        await close(); // a failed job may leave the worker unusable: start afresh next time
        throw new ExtractionError(`the image is corrupt or unreadable (${describeError(error)})`, { cause: error });
      }
    },
    close,
  };
}
