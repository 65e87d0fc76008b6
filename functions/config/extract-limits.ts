/**
 * What one file may cost to extract, measured on what it really holds (inflated bytes, pages, pixels,
 * decoded seconds), never on what its headers declare. A file past a limit fails with a reason.
 * Declared with the settings (the `KMEM_EXTRACT_MAX_*` variables), so the config module reads no adapter;
 * the extraction library (adapters/extract/types.ts) takes and re-exports this shape.
 */
export interface ExtractLimits {
  /** Bytes the entries of a ZIP package (DOCX, XLSX, EPUB, ...) may inflate to, all together. */
  maxUnzippedBytes: number;
  /** Inflated bytes per compressed byte a package may reach once it inflates past 10 MB. */
  maxZipRatio: number;
  /** Pages of a PDF. */
  maxPdfPages: number;
  /** Pixels of an image to OCR, or of a rendered PDF page (rendered smaller to fit). */
  maxPixels: number;
  /** Seconds of audio (or of a video's sound track) to transcribe. */
  maxMediaSeconds: number;
  /** Bytes of an HTML document to parse. */
  maxHtmlBytes: number;
}
