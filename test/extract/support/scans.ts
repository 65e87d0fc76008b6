/**
 * Scanned PDFs made the common ways, at test time: a page that is one picture of printed words, embedded
 * by pdf-lib as a Flate-compressed RGB image (as ReportLab and many scanners write a PNG) or as a
 * DCT (JPEG) image. The picture is drawn with @napi-rs/canvas, so OCR has real glyphs to read.
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export type ScanEncoding = 'flate-rgb' | 'dct-jpeg';

/** A picture of `lines` in black on white, 150 dpi-like: 36 px text. */
function pageImage(lines: string[], format: 'png' | 'jpeg'): Buffer {
  const canvas = createCanvas(1275, 300 + lines.length * 70);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#111111';
  context.font = '40px sans-serif';
  lines.forEach((line, row) => context.fillText(line, 100, 150 + row * 70));
  return format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 90);
}

/** A one-page PDF whose only content is the scanned picture of `lines`, with no text layer. */
export async function buildScan(lines: string[], encoding: ScanEncoding): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = encoding === 'flate-rgb' ? await pdf.embedPng(pageImage(lines, 'png')) : await pdf.embedJpg(pageImage(lines, 'jpeg'));
  const width = 612;
  const height = (image.height / image.width) * width;
  const page = pdf.addPage([width, height]);
  // As ReportLab does, the page sets a font before its picture (an empty text run): rendering must load it.
  page.drawText(' ', { x: 0, y: 0, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
  page.drawImage(image, { x: 0, y: 0, width, height });
  return pdf.save();
}
