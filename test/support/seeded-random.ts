/** A small seeded generator (a linear congruential one) for tests that draw random steps without fast-check. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** One of `items`, drawn with `random`. */
export function pickWith(random: () => number): <T>(items: readonly T[]) => T {
  return <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
}
