/**
 * What the PDF.js inside unpdf needs from the JavaScript runtime and Node 20 lacks: ArrayBuffer's
 * `transfer` and `transferToFixedLength` (Node 21+). Without them PDF.js fails to load a page's fonts,
 * drops the rest of the page (it only warns) and a scan renders blank. Imported before unpdf is used;
 * does nothing on a Node that has them.
 */

/** The buffer's bytes moved into a new buffer of `length` bytes (the old one is detached), as in ES2024. */
function transferred(this: ArrayBuffer, length?: number): ArrayBuffer {
  const size = length ?? this.byteLength;
  const moved = structuredClone(this, { transfer: [this] });
  if (size === moved.byteLength) return moved;
  const resized = new ArrayBuffer(size);
  new Uint8Array(resized).set(new Uint8Array(moved, 0, Math.min(size, moved.byteLength)));
  return resized;
}

for (const name of ['transfer', 'transferToFixedLength'] as const) {
  if (typeof (ArrayBuffer.prototype as unknown as Record<string, unknown>)[name] !== 'function') {
    Object.defineProperty(ArrayBuffer.prototype, name, { value: transferred, writable: true, configurable: true });
  }
}

export {};
