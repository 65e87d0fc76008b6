/**
 * Small vectors handed out as views of shared buffers. A `Float32Array` of more than 64 bytes gets an
 * ArrayBuffer of its own outside the JS heap (allocated, tracked and swept one by one by the garbage
 * collector); the sentence vectors a query embeds are 400 bytes each and kept in caches by the thousand,
 * so they are cut from buffers of `VECTORS_PER_BUFFER` instead. A buffer is freed once no view of it is
 * left, so one kept vector holds its whole buffer: 32 vectors (12.8 KB at 100 dimensions) is about what one
 * query embeds, which keeps what a rarely queried memory's cache holds on to small. Views never overlap,
 * and each starts all zero.
 */
const VECTORS_PER_BUFFER = 32;

export class VectorSlab {
  private buffer: ArrayBuffer | undefined;
  private used = 0;

  constructor(
    readonly dimensions: number,
    private readonly perBuffer = VECTORS_PER_BUFFER,
  ) {}

  /** A new all-zero vector of `dimensions` values. */
  next(): Float32Array {
    if (!this.buffer || this.used === this.perBuffer) {
      this.buffer = new ArrayBuffer(this.perBuffer * this.dimensions * Float32Array.BYTES_PER_ELEMENT);
      this.used = 0;
    }
    const vector = new Float32Array(this.buffer, this.used * this.dimensions * Float32Array.BYTES_PER_ELEMENT, this.dimensions);
    this.used++;
    return vector;
  }
}
