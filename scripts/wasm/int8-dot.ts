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
 * last): they meet zero query values and add nothing. Needs `blocks ≥ 1` and sums that fit an int32 (the
 * caller bounds the query's range).
 *
 * Rows go two at a time (each query block loaded once for both rows, half the loop overhead a row;
 * about a fifth less time at 100,000 × 100), then the last row alone when the count is odd. Integer
 * sums, so the order of the additions changes no result.
 *
 * In wat:
 *   block $pairs_done
 *     loop $pairs
 *       br_if $pairs_done (count < 2)
 *       p = rows; p2 = rows + stride; q = query; b = blocks; acc = acc2 = 0
 *       loop $blocks
 *         qa = load(q); qb = load(q + 16)
 *         v = load(p);  acc  += dot_i16x8_s(extend_low_s(v), qa) + dot_i16x8_s(extend_high_s(v), qb)
 *         v = load(p2); acc2 += dot_i16x8_s(extend_low_s(v), qa) + dot_i16x8_s(extend_high_s(v), qb)
 *         p += 16; p2 += 16; q += 32; br_if $blocks (b -= 1)
 *       store(out, lanes of acc summed); store(out + 4, lanes of acc2 summed)
 *       out += 8; rows += 2 × stride; count -= 2
 *       br $pairs
 *   if count (one row left)
 *     p = rows; q = query; b = blocks; acc = 0
 *     loop $blocks
 *       v = v128.load(p)
 *       acc += dot_i16x8_s(extend_low_s(v), load(q)) + dot_i16x8_s(extend_high_s(v), load(q + 16))
 *       p += 16; q += 32; br_if $blocks (b -= 1)
 *     store(out, acc[0] + acc[1] + acc[2] + acc[3])
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
  P2 = 9,
  ACC = 10,
  V = 11,
  ACC2 = 12,
  QA = 13,
  QB = 14;

const get = (local: number): number[] => [OP.local_get, ...u32(local)];
const set = (local: number): number[] => [OP.local_set, ...u32(local)];
const tee = (local: number): number[] => [OP.local_tee, ...u32(local)];
const constant = (value: number): number[] => [OP.i32_const, ...s32(value)];
/** `local += step`. */
const advance = (local: number, step: number): number[] => [...get(local), ...constant(step), OP.i32_add, ...set(local)];
/** `local -= 1`, leaving the new value on the stack. */
const decrement = (local: number): number[] => [...get(local), ...constant(1), OP.i32_sub, ...tee(local)];
const loadV128 = (offset: number): number[] => [...simd(SIMD.v128_load), ...memarg(0, offset)];
const lane = (index: number, acc = ACC): number[] => [...get(acc), ...simd(SIMD.i32x4_extract_lane), index];
/** The sum of `acc`'s four lanes, left on the stack. */
const lanesSum = (acc: number): number[] => [
  ...lane(0, acc),
  ...lane(1, acc),
  OP.i32_add,
  ...lane(2, acc),
  OP.i32_add,
  ...lane(3, acc),
  OP.i32_add,
];
const zeroV128 = (): number[] => [...simd(SIMD.v128_const), ...new Array<number>(16).fill(0)];

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

/** `acc += dot(extend_low(row block at p), qa) + dot(extend_high(…), qb)`. */
function accumulatePair(rowPointer: number, acc: number): number[] {
  return [
    ...get(rowPointer),
    ...loadV128(0),
    ...set(V),
    ...get(acc),
    ...get(V),
    ...simd(SIMD.i16x8_extend_low_i8x16_s),
    ...get(QA),
    ...simd(SIMD.i32x4_dot_i16x8_s),
    ...simd(SIMD.i32x4_add),
    ...get(V),
    ...simd(SIMD.i16x8_extend_high_i8x16_s),
    ...get(QB),
    ...simd(SIMD.i32x4_dot_i16x8_s),
    ...simd(SIMD.i32x4_add),
    ...set(acc),
  ];
}

/** Two rows at a time (p and p2 = p + stride), each query block read once for both. */
function pairBlockLoop(): number[] {
  return [
    OP.loop,
    TYPE.emptyBlock,
    ...get(Q),
    ...loadV128(0),
    ...set(QA),
    ...get(Q),
    ...loadV128(16),
    ...set(QB),
    ...accumulatePair(P, ACC),
    ...accumulatePair(P2, ACC2),
    ...advance(P, 16),
    ...advance(P2, 16),
    ...advance(Q, 32),
    ...decrement(B),
    OP.br_if,
    0,
    OP.end,
  ];
}

/** While two rows or more are left: both rows' dots, then on to the next two. */
function pairLoop(): number[] {
  return [
    OP.block,
    TYPE.emptyBlock,
    OP.loop,
    TYPE.emptyBlock,
    ...get(COUNT),
    ...constant(2),
    OP.i32_lt_u,
    OP.br_if,
    1,
    ...get(ROWS),
    ...set(P),
    ...get(ROWS),
    ...get(STRIDE),
    OP.i32_add,
    ...set(P2),
    ...get(QUERY),
    ...set(Q),
    ...get(BLOCKS),
    ...set(B),
    ...zeroV128(),
    ...set(ACC),
    ...zeroV128(),
    ...set(ACC2),
    ...pairBlockLoop(),
    ...get(OUT),
    ...lanesSum(ACC),
    OP.i32_store,
    ...memarg(2, 0),
    ...get(OUT),
    ...lanesSum(ACC2),
    OP.i32_store,
    ...memarg(2, 4),
    ...advance(OUT, 8),
    ...get(ROWS),
    ...get(STRIDE),
    ...get(STRIDE),
    OP.i32_add,
    OP.i32_add,
    ...set(ROWS),
    ...get(COUNT),
    ...constant(2),
    OP.i32_sub,
    ...set(COUNT),
    OP.br,
    0,
    OP.end,
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
    [...u32(4), TYPE.i32],
    [...u32(5), TYPE.v128],
  ]);
  // pairs of rows, then the last row when the count is odd
  const code = [...locals, ...pairLoop(), ...get(COUNT), OP.if, TYPE.emptyBlock, ...rowLoop(), OP.end, OP.end];
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
