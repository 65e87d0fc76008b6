/**
 * Word (.docx): the document's text through mammoth, paragraphs separated by blank lines; the title
 * from the package's core properties.
 */
import mammoth from 'mammoth';
import { ExtractionError } from '../errors';
import { tidyText, visibleLength } from '../../readable-text/tidy';
import type { Extracted } from '../types';
import { openZip, readZipText } from '../zip-entries';

const MAX_WARNINGS = 5;

export async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  let result: Awaited<ReturnType<typeof mammoth.extractRawText>>;
  try {
    result = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  } catch (error) {
    throw new ExtractionError('the Word document is corrupt or unreadable', { cause: error });
  }
  const text = tidyText(result.value);
  if (visibleLength(text) === 0) throw new ExtractionError('the Word document contains no text');
  const warnings = result.messages
    .filter((message) => message.type === 'warning')
    .slice(0, MAX_WARNINGS)
    .map((message) => `Word document: ${message.message}`);
  const title = packageTitle(bytes);
  return { text, kind: 'docx', ...(title ? { title } : {}), warnings };
}

/** `dc:title` from docProps/core.xml of an Office Open XML package. */
export function packageTitle(bytes: Uint8Array): string | undefined {
  const archive = openZip(bytes);
  const core = archive ? readZipText(archive, 'docProps/core.xml') : null;
  const raw = core?.match(/<dc:title[^>]*>([\s\S]*?)<\/dc:title>/)?.[1];
  const title = raw ? decodeXmlEntities(raw).trim() : '';
  return title || undefined;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) => {
    if (!name.startsWith('#')) return NAMED_ENTITIES[name] ?? entity;
    const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
