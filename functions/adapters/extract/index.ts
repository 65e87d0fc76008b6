/**
 * Text extraction by file kind, for the ingestion worker. The content decides the kind (magic bytes,
 * ZIP entries, text sniffing); the declared type only breaks ties and earns a warning when it is wrong.
 * Every failure leaves as an ExtractionError whose message a person understands.
 */
import { ExtractionError } from './errors';
import { describeError } from '../wording';
import { assertPackageBounded, limitsOf } from './limits';
import type { MediaIntent } from './media/extract-media';
import { sniffContent, type Sniffed } from './sniff';
import type { DeclaredFileType, ExtractDeps, Extracted, ExtractedKind, ExtractInput } from './types';

export { ExtractionError } from './errors';
export type * from './types';
export { createTesseractOcr } from './images/tesseract';
export { createTextractOcr, TEXTRACT_FORMATS, TEXTRACT_NAME } from './images/textract';
export { createPocketsphinxRecognizer } from './speech/pocketsphinx';
export { createTranscribeRecognizer, TRANSCRIBE_NAME, type TranscribeOptions } from './speech/transcribe';

export async function extractText(input: ExtractInput, deps: ExtractDeps): Promise<Extracted> {
  try {
    const sniffed = sniffContent(input.bytes);
    const extracted = await extractSniffed(sniffed, input, deps);
    const mismatch = declaredMismatch(input.fileType, extracted.kind);
    return mismatch ? { ...extracted, warnings: [mismatch, ...extracted.warnings] } : extracted;
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`the file could not be read: ${describeError(error)}`, { cause: error });
  }
}

/** Each format's parser is loaded on first use, so a warm worker pays only for the kinds it meets. */
async function extractSniffed(sniffed: Sniffed, input: ExtractInput, deps: ExtractDeps): Promise<Extracted> {
  switch (sniffed.family) {
    case 'pdf':
      return (await import('./documents/pdf')).extractPdf(input.bytes, deps.ocr, deps.pdf, limitsOf(deps));
    case 'package':
      await assertPackageBounded(input.bytes, limitsOf(deps));
      return sniffed.kind === 'docx'
        ? (await import('./documents/docx')).extractDocx(input.bytes)
        : (await import('./documents/office')).extractOffice(input.bytes, sniffed.kind);
    case 'image':
      return (await import('./images/extract-image')).extractImage(input.bytes, sniffed.format, deps);
    case 'media': {
      const intent = mediaIntent(sniffed.hint, input.fileType);
      return (await import('./media/extract-media')).extractMedia(input.bytes, intent, deps);
    }
    case 'text':
      return (await import('./documents/text-document')).extractTextDocument(input, limitsOf(deps));
    case 'unsupported':
    case 'unknown':
      throw new ExtractionError(sniffed.reason);
  }
}

/** A container that may hold either is taken as the client declared it; otherwise the streams decide. */
function mediaIntent(hint: 'audio' | 'video' | 'either', declared: DeclaredFileType): MediaIntent {
  if (hint !== 'either') return hint;
  return declared === 'audio' || declared === 'video' ? declared : 'either';
}

const PACKAGE_KINDS: ExtractedKind[] = ['docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods', 'epub'];
const DOCUMENT_KINDS = new Set<ExtractedKind>(['pdf', ...PACKAGE_KINDS, 'rtf', 'html', 'markdown', 'text']);

function declaredMismatch(declared: DeclaredFileType, kind: ExtractedKind): string | null {
  const matches =
    declared === 'other' || ((declared === 'document' || declared === 'text') && DOCUMENT_KINDS.has(kind)) || declared === kind;
  return matches ? null : `declared as ${declared}, but the content is ${kind}: extracted as ${kind}`;
}
