/**
 * The few pieces of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/)
 * that scripts/wasm/int8-dot.ts needs to assemble a module by hand: LEB128 numbers, names, vectors,
 * sections, and the opcodes it uses. No tool beyond Node is needed to regenerate the kernel.
 */

export type Bytes = readonly number[];

/** Unsigned LEB128. */
export function u32(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const byte = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? byte : byte | 0x80);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 (32-bit). */
export function s32(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

export function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...u32(bytes.length), ...bytes];
}

/** A vector: its length, then its items. */
export function vec(items: readonly Bytes[]): number[] {
  return [...u32(items.length), ...items.flat()];
}

export function section(id: number, content: Bytes): number[] {
  return [id, ...u32(content.length), ...content];
}

export const MODULE_HEADER: Bytes = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export const SECTION = { type: 1, import: 2, function: 3, export: 7, code: 10 } as const;
export const TYPE = { i32: 0x7f, v128: 0x7b, func: 0x60, emptyBlock: 0x40 } as const;
export const KIND = { func: 0x00, memory: 0x02 } as const;

/** Core opcodes (one byte each). */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  br_if: 0x0d,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  i32_store: 0x36,
  i32_const: 0x41,
  i32_eqz: 0x45,
  i32_lt_u: 0x49,
  i32_add: 0x6a,
  i32_sub: 0x6b,
} as const;

/** SIMD opcodes: emitted as the 0xfd prefix then the number as unsigned LEB128. */
export const SIMD = {
  v128_load: 0x00,
  v128_const: 0x0c,
  i32x4_extract_lane: 0x1b,
  i16x8_extend_low_i8x16_s: 0x87,
  i16x8_extend_high_i8x16_s: 0x88,
  i32x4_add: 0xae,
  i32x4_dot_i16x8_s: 0xba,
} as const;

export function simd(opcode: number): number[] {
  return [0xfd, ...u32(opcode)];
}

/** A memory immediate: log2 of the alignment hint and a constant offset. */
export function memarg(alignLog2: number, offset: number): number[] {
  return [...u32(alignLog2), ...u32(offset)];
}
