/**
 * Deterministic pseudo-random chunk text for the index benches (bench:write-cost, bench:cold-load): words of
 * a small vocabulary with a numeric suffix, from a linear congruential generator, so every run indexes the
 * same words.
 */
const VOCABULARY =
  'tide moon owl night rye bread salt glacier valley river stone wind harbour cell protein gene dose trial patient risk blood brain heart liver lung bone muscle virus cancer immune signal pathway receptor enzyme'.split(
    ' ',
  );

export function syntheticText(seed: number, words: number): string {
  let state = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(`${VOCABULARY[state % VOCABULARY.length]}${state % 97}`);
  }
  return out.join(' ');
}
