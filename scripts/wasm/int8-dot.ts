/**
 * Assembles the int8 dot-product kernel used by functions/engine/retrieval/int8-dot-kernel.ts: a wasm
 * module (SIMD) importing `env.memory` and exporting
 *
 *   dots(rows, count, stride, blocks, query, out)
 *
 * For each of `count` rows of int8 values (row r starts at byte `rows + r * stride`), the int32 dot
 * product with the int16 query at `query` (`blocks * 16` values, zero after the row's real length) is
 * stored at `out + 4 * r`. Each block of 16 row bytes is sign-extended to two i16x8 halves and multiplied
 * with the query by `i32x4.dot_i16x8_s`, accumulated in one i32x4 and summed across lanes at the end of
 * the row. A row's last block may read bytes past the row (the next row, or 16 bytes of slack after the
 * last): they meet zero query values and add nothing. Needs `blocks ≥ 1`, `count ≥ 1`, and sums that fit
 * an int32 (the caller bounds the query's range).
 *
 * In wat:
 *   loop $rows
 *     p = rows; q = query; b = blocks; acc = 0
 *     loop $blocks
 *       v = v128.load(p)
 *       acc += dot_i16x8_s(extend_low_s(v), load(q)) + dot_i16x8_s(extend_high_s(v), load(q + 16))
 *       p += 16; q += 32; br_if $blocks (b -= 1)
 *     store(out, acc[0] + acc[1] + acc[2] + acc[3]); out += 4; rows += stride
 *     br_if $rows (count -= 1)
 */
import { type Bytes, KIND, memarg, MODULE_HEADER, name, OP, s32, section, SECTION, SIMD, simd, TYPE, u32, vec } from './encoding';

// Parameters, then locals, by index.
const ROWS = 0,
  COUNT = 1,
  STRIDE = 2,
  BLOCKS = 3,
  QUERY = 4,
  OUT = 5;
const P = 6,
  Q = 7,
  B = 8,
  ACC = 9,
  V = 10;

const get = (local: number): number[] => [OP.local_get, ...u32(local)];
const set = (local: number): number[] => [OP.local_set, ...u32(local)];
const tee = (local: number): number[] => [OP.local_tee, ...u32(local)];
const constant = (value: number): number[] => [OP.i32_const, ...s32(value)];
/** `local += step`. */
const advance = (local: number, step: number): number[] => [...get(local), ...constant(step), OP.i32_add, ...set(local)];
/** `local -= 1`, leaving the new value on the stack. */
const decrement = (local: number): number[] => [...get(local), ...constant(1), OP.i32_sub, ...tee(local)];
const loadV128 = (offset: number): number[] => [...simd(SIMD.v128_load), ...memarg(0, offset)];
const lane = (index: number): number[] => [...get(ACC), ...simd(SIMD.i32x4_extract_lane), index];

/** `acc += dot(extend(v), query block at q + offset)`. */
function accumulateHalf(extend: number, queryOffset: number): number[] {
  return [...get(V), ...simd(extend), ...get(Q), ...loadV128(queryOffset), ...simd(SIMD.i32x4_dot_i16x8_s), ...simd(SIMD.i32x4_add)];
}

function blockLoop(): number[] {
  return [
    OP.loop,
    TYPE.emptyBlock,
    ...get(P),
    ...loadV128(0),
    ...set(V),
    ...get(ACC),
    ...accumulateHalf(SIMD.i16x8_extend_low_i8x16_s, 0),
    ...accumulateHalf(SIMD.i16x8_extend_high_i8x16_s, 16),
    ...set(ACC),
    ...advance(P, 16),
    ...advance(Q, 32),
    ...decrement(B),
    OP.br_if,
    0,
    OP.end,
  ];
}

function rowLoop(): number[] {
  return [
    OP.loop,
    TYPE.emptyBlock,
    ...get(ROWS),
    ...set(P),
    ...get(QUERY),
    ...set(Q),
    ...get(BLOCKS),
    ...set(B),
    ...simd(SIMD.v128_const),
    ...new Array<number>(16).fill(0),
    ...set(ACC),
    ...blockLoop(),
    ...get(OUT),
    ...lane(0),
    ...lane(1),
    OP.i32_add,
    ...lane(2),
    OP.i32_add,
    ...lane(3),
    OP.i32_add,
    OP.i32_store,
    ...memarg(2, 0),
    ...advance(OUT, 4),
    ...get(ROWS),
    ...get(STRIDE),
    OP.i32_add,
    ...set(ROWS),
    ...decrement(COUNT),
    OP.br_if,
    0,
    OP.end,
  ];
}

function dotsBody(): number[] {
  const locals = vec([
    [...u32(3), TYPE.i32],
    [...u32(2), TYPE.v128],
  ]);
  const code = [...locals, ...rowLoop(), OP.end];
  return [...u32(code.length), ...code];
}

/** The module's bytes. */
export function assembleInt8DotModule(): Uint8Array {
  const dotsType: Bytes = [TYPE.func, ...vec(new Array<Bytes>(6).fill([TYPE.i32])), ...vec([])];
  const memoryImport: Bytes = [...name('env'), ...name('memory'), KIND.memory, 0x00, ...u32(1)];
  return Uint8Array.from([
    ...MODULE_HEADER,
    ...section(SECTION.type, vec([dotsType])),
    ...section(SECTION.import, vec([memoryImport])),
    ...section(SECTION.function, vec([u32(0)])),
    ...section(SECTION.export, vec([[...name('dots'), KIND.func, ...u32(0)]])),
    ...section(SECTION.code, vec([dotsBody()])),
  ]);
}
