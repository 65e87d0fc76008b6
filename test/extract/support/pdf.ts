/**
 * Writes small PDFs byte by byte: pages with a text layer (Helvetica), and scanned pages whose only
 * content is a grayscale PNG embedded as-is (its IDAT stream is valid FlateDecode with the PNG predictor).
 */
import { inflateSync } from 'node:zlib';

export interface TextPdfOptions {
  title?: string;
  /** Adds a Standard security handler whose user password is not empty, so readers ask for one. */
  passwordProtected?: boolean;
}

export function buildTextPdf(pages: string[][], options: TextPdfOptions = {}): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((lines, index) => {
    const pageId = pageIds[index] ?? 0;
    const content = lines.map((line, row) => `BT /F1 14 Tf 72 ${720 - row * 24} Td (${escapePdf(line)}) Tj ET`).join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  const info = options.title ? objects.push(`<< /Title (${escapePdf(options.title)}) >>`) - 1 : undefined;
  const encrypt = options.passwordProtected
    ? objects.push(`<< /Filter /Standard /V 1 /R 2 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> /P -4 >>`) - 1
    : undefined;
  const trailer = [
    info ? `/Info ${info} 0 R` : '',
    encrypt ? `/Encrypt ${encrypt} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return serialise(
    objects.map((body) => Buffer.from(body, 'latin1')),
    trailer,
  );
}

export function buildScannedPdf(png: Uint8Array): Uint8Array {
  const { width, height, idat } = readGrayPng(png);
  const drawing = `q ${width} 0 0 ${height} 0 0 cm /Im1 Do Q`;
  const objects: Buffer[] = [];
  objects[1] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>');
  objects[2] = Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  objects[3] = Buffer.from(
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`,
  );
  objects[4] = Buffer.from(`<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`);
  const imageHeader =
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 ` +
    `/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns ${width} >> /Length ${idat.length} >>\nstream\n`;
  objects[5] = Buffer.concat([Buffer.from(imageHeader), idat, Buffer.from('\nendstream')]);
  return serialise(objects);
}

function serialise(objects: Array<Buffer | undefined>, trailerEntries = ''): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  for (let id = 1; id < objects.length; id++) {
    const object = Buffer.concat([Buffer.from(`${id} 0 obj\n`), objects[id] ?? Buffer.from('null'), Buffer.from('\nendobj\n')]);
    offsets[id] = length;
    parts.push(object);
    length += object.length;
  }
  const xref = [
    `xref\n0 ${objects.length}\n0000000000 65535 f \n`,
    ...offsets.slice(1).map((at) => `${String(at).padStart(10, '0')} 00000 n \n`),
  ];
  const trailer = `trailer\n<< /Size ${objects.length} /Root 1 0 R ${trailerEntries} >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref.join('') + trailer));
  return new Uint8Array(Buffer.concat(parts));
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}

/** Width, height and concatenated IDAT of an 8-bit grayscale, non-interlaced PNG. */
function readGrayPng(png: Uint8Array): { width: number; height: number; idat: Buffer } {
  const bytes = Buffer.from(png);
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 0 || data[12] !== 0) throw new Error('fixture PNG must be 8-bit grayscale, not interlaced');
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const stream = Buffer.concat(idat);
  inflateSync(stream); // fail early on a damaged fixture
  return { width, height, idat: stream };
}
