/**
 * The pixel size an image's header gives, which is what a decoder allocates: enough to refuse an image
 * bomb (a few KB of PNG that decodes to 15,000 x 15,000 pixels) before OCR or conversion decodes it.
 */
import type { ImageFormat } from '../types';

export interface ImageSize {
  width: number;
  height: number;
}

/** The size of a PNG, GIF, BMP, WebP or JPEG; undefined when the header cannot tell (TIFF, damage). */
export function imageSize(bytes: Uint8Array, format: ImageFormat): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const inside = (length: number): boolean => bytes.length >= length;
  switch (format) {
    case 'png':
      return inside(24) ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined;
    case 'gif':
      return inside(10) ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : undefined;
    case 'bmp':
      return inside(26) ? { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) } : undefined;
    case 'webp':
      return webpSize(bytes, view);
    case 'jpeg':
      return jpegSize(bytes, view);
    default:
      return undefined;
  }
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X') {
    const read24 = (at: number): number => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
    return { width: read24(24) + 1, height: read24(27) + 1 };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** The size in the first start-of-frame marker (SOF0 to SOF15, but not DHT, JPG or DAC). */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
