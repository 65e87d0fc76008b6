/**
 * The int8 dot-product kernel (WebAssembly SIMD; bytes in int8-dot-wasm.ts, assembled by
 * scripts/gen-int8-dot-wasm.ts) bound to one int8 segment. Its memory holds a copy of the segment's rows
 * (made once, on the segment's first exact search: the rows then live twice, e.g. 10 MB more for
 * 100,000 × 100), a query slot and an output slot that every query reuses. The kernel computes, for every
 * row, the exact int32 dot product with an int16 query; int8-bounded-search.ts turns that into exact
 * top-k. Where WebAssembly SIMD is missing (or the memory cannot be had), there is no kernel and exact
 * search scans in JavaScript.
 */
import { INT8_DOT_WASM } from './int8-dot-wasm';
import type { VectorSegment } from './vector-segment';

/** Row bytes per SIMD block; the query is padded with zeros to whole blocks. */
const BLOCK = 16;
const PAGE_BYTES = 65_536;
const MAX_PAGES = 65_536;

type DotsFunction = (rows: number, count: number, stride: number, blocks: number, query: number, out: number) => void;

/** The part of the WebAssembly JS API used here (the project's type libraries do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
type WasmModule = object;
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
let compiled: WasmModule | null | undefined;

/** The compiled kernel module, or null where WebAssembly SIMD is unavailable. */
function kernelModule(): WasmModule | null {
  if (compiled === undefined) compiled = wasm?.validate(INT8_DOT_WASM) ? new wasm.Module(INT8_DOT_WASM) : null;
  return compiled;
}

/** Whether this runtime can run the kernel (WebAssembly with SIMD). */
export function int8KernelSupported(): boolean {
  return kernelModule() !== null;
}

export class Int8DotKernel {
  /** The query slot: `blocks × 16` int16 values; write the query's first `dimensions`, leave the rest 0. */
  readonly query: Int16Array;
  /** The output slot: the dot product of every row with the query after `run()`, by ordinal. */
  readonly dots: Int32Array;
  private readonly blocks: number;

  private constructor(
    private readonly segment: VectorSegment,
    private readonly dotsFunction: DotsFunction,
    memory: WasmMemory,
    private readonly layout: KernelLayout,
  ) {
    this.blocks = Math.ceil(segment.dimensions / BLOCK);
    new Int8Array(memory.buffer, 0, layout.rowBytes).set(segment.values);
    this.query = new Int16Array(memory.buffer, layout.queryOffset, this.blocks * BLOCK);
    this.dots = new Int32Array(memory.buffer, layout.dotsOffset, segment.count);
  }

  /** A kernel over `segment`'s rows, or null (no SIMD, float32 rows, nothing to scan, no memory). */
  static over(segment: VectorSegment): Int8DotKernel | null {
    const module = kernelModule();
    if (!wasm || !module || !(segment.values instanceof Int8Array) || segment.count === 0 || segment.dimensions === 0) return null;
    const layout = kernelLayout(segment);
    const pages = Math.ceil(layout.totalBytes / PAGE_BYTES);
    if (pages > MAX_PAGES) return null;
    let memory: WasmMemory;
    try {
      memory = new wasm.Memory({ initial: pages, maximum: pages });
    } catch {
      return null;
    }
    const instance = new wasm.Instance(module, { env: { memory } });
    return new Int8DotKernel(segment, instance.exports.dots as DotsFunction, memory, layout);
  }

  /**
   * Fills `dots` from the current `query`: every row, or only `rows` (ascending ordinals; one kernel call
   * per run of consecutive ones, the other entries of `dots` left as they were).
   */
  run(rows?: Int32Array): Int32Array {
    const { count, dimensions } = this.segment;
    if (!rows) {
      this.dotsFunction(0, count, dimensions, this.blocks, this.layout.queryOffset, this.layout.dotsOffset);
      return this.dots;
    }
    for (let first = 0; first < rows.length; ) {
      const start = rows[first] as number;
      let last = first;
      while (last + 1 < rows.length && (rows[last + 1] as number) === (rows[last] as number) + 1) last++;
      const length = last - first + 1;
      this.dotsFunction(start * dimensions, length, dimensions, this.blocks, this.layout.queryOffset, this.layout.dotsOffset + 4 * start);
      first = last + 1;
    }
    return this.dots;
  }
}

interface KernelLayout {
  rowBytes: number;
  queryOffset: number;
  dotsOffset: number;
  totalBytes: number;
}

/** Rows at 0 (the last row's last block reads up to 15 bytes past them), then the query, then the dots. */
function kernelLayout(segment: VectorSegment): KernelLayout {
  const rowBytes = segment.count * segment.dimensions;
  const queryOffset = Math.ceil((rowBytes + BLOCK) / BLOCK) * BLOCK;
  const dotsOffset = queryOffset + Math.ceil(segment.dimensions / BLOCK) * BLOCK * 2;
  return { rowBytes, queryOffset, dotsOffset, totalBytes: dotsOffset + segment.count * 4 };
}

const kernels = new WeakMap<VectorSegment, Int8DotKernel | null>();

/** The kernel of `segment`, made on first use and kept as long as the segment lives; null when there is none. */
export function int8DotKernel(segment: VectorSegment): Int8DotKernel | null {
  let kernel = kernels.get(segment);
  if (kernel === undefined) kernels.set(segment, (kernel = Int8DotKernel.over(segment)));
  return kernel;
}
