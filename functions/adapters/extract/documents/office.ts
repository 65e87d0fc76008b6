/**
 * PowerPoint, Excel, OpenDocument, EPUB, RTF and Markdown through officeparser's format parsers and
 * its plain-text output. Its own OCR stays off: images are the image extractor's business.
 */
import { OfficeParser } from 'officeparser';
import { ExtractionError } from '../errors';
import { describeError } from '../../wording';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import type { Extracted } from '../types';

export type OfficeKind = 'pptx' | 'xlsx' | 'odt' | 'odp' | 'ods' | 'epub' | 'rtf' | 'markdown';

const DESCRIPTIONS: Record<OfficeKind, string> = {
  pptx: 'PowerPoint presentation',
  xlsx: 'Excel workbook',
  odt: 'OpenDocument text',
  odp: 'OpenDocument presentation',
  ods: 'OpenDocument spreadsheet',
  epub: 'EPUB book',
  rtf: 'RTF document',
  markdown: 'Markdown document',
};

const MAX_WARNINGS = 5;

export async function extractOffice(bytes: Uint8Array, kind: OfficeKind): Promise<Extracted> {
  const description = DESCRIPTIONS[kind];
  let parsed: { text: string; title: string | undefined; issues: string[] };
  try {
    parsed = await parse(bytes, kind);
  } catch (error) {
    throw new ExtractionError(`the ${description} is corrupt or unreadable (${describeError(error)})`, {
      cause: error,
    });
  }
  const text = tidyText(parsed.text);
  if (visibleLength(text) === 0) throw new ExtractionError(`the ${description} contains no text`);
  const warnings = parsed.issues.slice(0, MAX_WARNINGS).map((issue) => `${description}: ${issue}`);
  return { text, kind, ...(parsed.title ? { title: parsed.title } : {}), warnings };
}

async function parse(bytes: Uint8Array, kind: OfficeKind): Promise<{ text: string; title: string | undefined; issues: string[] }> {
  const ast = await OfficeParser.parseOffice(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    fileType: kind === 'markdown' ? 'md' : kind,
    ocr: false,
    extractAttachments: false,
    ignoreNotes: false,
    ignoreComments: true,
  });
  const output = await ast.to('text');
  const title = ast.metadata.title?.trim() || undefined;
  const issues = ast.warnings.filter((issue) => issue.type !== 'info').map((issue) => issue.message);
  return { text: output.value, title, issues };
}
