/**
 * Small files that explode, made at test time (nothing large is committed): each is a few KB to a few MB
 * on disk and asks an extractor for far more (inflated bytes, pages, pixels, seconds, nesting) than the
 * limits allow. Shared by test/extract/hostile.test.ts and the soak test.
 */
import { crc32, deflateSync } from 'node:zlib';
import { buildDocx } from '../extract/support/office';
import { ffmpegMake } from '../extract/support/media';

export interface HostileFile {
  /** What it is, for test names. */
  label: string;
  name: string;
  bytes: Uint8Array;
  fileType: 'document' | 'text' | 'image' | 'audio' | 'other';
  contentType: string;
  /** What the failure reason must say. */
  reason: RegExp;
}

/** A DOCX whose one XML part inflates to `megabytes` MB: a thousand times its compressed size. */
export function zipBombDocx(megabytes: number): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>all work and no play</w:t></w:r></w:p>';
  return buildDocx([paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / paragraph.length / 1.6))]);
}

/** A PDF of `pages` pages sharing one content stream (a few bytes of text each). */
export function manyPagePdf(pages: number): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  const content = 'BT /F1 12 Tf 72 720 Td (page) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...Array.from(
      { length: pages },
      () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
    ),
  ];
  return serialisePdf(objects);
}

/** A PDF whose one page, with no text layer, is `points` x `points` points: OCR would render it huge. */
export function giantPagePdf(points: number): Uint8Array {
  const drawing = '0 0 m 10 10 l S';
  return serialisePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${points} ${points}] /Contents 4 0 R >>`,
    `<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`,
  ]);
}

/** A PNG whose header says `side` x `side` pixels of gray; its pixel data is a few rows, then ends. */
export function pixelBombPng(side: number): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = deflateSync(Buffer.alloc((side + 1) * 4));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]));
}

/** `seconds` of a 440 Hz tone as low-bitrate Opus: a few KB per minute, 32 KB a second once decoded. */
export function longToneOpus(seconds: number): Promise<Uint8Array> {
  return ffmpegMake(
    ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=8000`, '-c:a', 'libopus', '-b:a', '6k', '{out}'],
    'tone.ogg',
  );
}

/** An HTML page of `megabytes` MB of flat paragraphs. */
export function largeHtml(megabytes: number): string {
  const paragraph = '<p>A paragraph of an enormous page, <a href="/next">with a link</a> and <b>bold</b> words.</p>\n';
  return `<html><head><title>Large</title></head><body>${paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / paragraph.length))}</body></html>`;
}

/** An HTML page whose text sits under `depth` nested elements. */
export function deepHtml(depth: number): string {
  return `<html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}the bottom of the page${'</div>'.repeat(depth)}</body></html>`;
}

function serialisePdf(objects: string[]): Uint8Array {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body + xref + trailer, 'latin1'));
}
