/**
 * The shapes of the extraction library: what goes in, what comes out, and the adapters (OCR engine,
 * speech recogniser) that configuration chooses and the caller injects.
 */
import type { ExtractLimits } from '../../config/extract-limits';

export type DeclaredFileType = 'document' | 'text' | 'image' | 'audio' | 'video' | 'other';

export interface ExtractInput {
  bytes: Uint8Array;
  /** The type the client declared; a hint only: the content decides. */
  fileType: DeclaredFileType;
  /** The file's name, a hint for text flavours (markdown vs plain) that bytes cannot tell apart. */
  name: string;
  /** The declared MIME type, e.g. `text/plain; charset=iso-8859-1`; its charset is honoured. */
  contentType: string | null;
}

export type ExtractedKind =
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'odt'
  | 'odp'
  | 'ods'
  | 'epub'
  | 'rtf'
  | 'html'
  | 'markdown'
  | 'text'
  | 'image'
  | 'audio'
  | 'video';

export interface Extracted {
  text: string;
  kind: ExtractedKind;
  title?: string;
  /** Duration of audio and video, in seconds. */
  lengthSeconds?: number;
  /** Distinct speakers, when the recogniser labels them. */
  numSpeakers?: number;
  /** The audio track of a video as 16 kHz mono PCM WAV (to store as the silver audio artefact). */
  audio?: Uint8Array;
  /** Things a person may want to know that did not stop extraction (pages OCR'd, content unlike its declared type). */
  warnings: string[];
}

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'webp';

export interface OcrImage {
  bytes: Uint8Array;
  format: ImageFormat;
}

export interface OcrResult {
  text: string;
  /** 0 to 100, when the engine reports one. */
  confidence?: number;
}

export interface OcrEngine {
  /** Names the engine and its model, e.g. `tesseract.js-7/eng`; recorded as the adapter that built a memory. */
  readonly name: string;
  /** Image formats the engine reads; others are converted to PNG first. */
  readonly formats: ReadonlySet<ImageFormat>;
  recognize(image: OcrImage): Promise<OcrResult>;
  /** Releases workers or connections; the engine may be used again afterwards (it restarts lazily). */
  close?(): Promise<void>;
}

/** 16 kHz mono 16-bit PCM WAV, as every recogniser receives it. */
export interface PcmWav {
  bytes: Uint8Array;
  sampleRate: number;
  lengthSeconds: number;
}

export interface SpeechResult {
  text: string;
  numSpeakers?: number;
  warnings?: string[];
}

export interface SpeechRecognizer {
  readonly name: string;
  transcribe(audio: PcmWav): Promise<SpeechResult>;
  close?(): Promise<void>;
}

export interface MediaToolOptions {
  /** Path of an ffmpeg binary; defaults to the one @ffmpeg-installer ships. */
  ffmpegPath?: string;
  /** Longest an ffmpeg run may take, in milliseconds (default 5 minutes). */
  timeoutMs?: number;
}

export interface PdfOptions {
  /** Pages without a text layer OCR'd at most per PDF (default 50); the rest are reported in warnings. */
  maxOcrPages?: number;
  /** Render scale for OCR: 1 is 72 dpi (default 3, about 216 dpi). */
  ocrRenderScale?: number;
}

export type { ExtractLimits };

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxUnzippedBytes: 256 * 1024 * 1024,
  maxZipRatio: 100,
  maxPdfPages: 2_000,
  maxPixels: 25_000_000,
  maxMediaSeconds: 30 * 60,
  maxHtmlBytes: 5 * 1024 * 1024,
};

export interface ExtractDeps {
  ocr: OcrEngine;
  speech: SpeechRecognizer;
  media?: MediaToolOptions;
  pdf?: PdfOptions;
  /** DEFAULT_EXTRACT_LIMITS where absent. */
  limits?: Partial<ExtractLimits>;
}
