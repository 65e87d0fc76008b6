/** Token counting with cl100k_base (values from OpenAI's tiktoken) and the pre-extraction estimate. */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  countTokens,
  ESTIMATE_BYTES_PER_TOKEN,
  estimateTokens,
  isTokenizerLoaded,
  loadTokenizer,
  TOKEN_ENCODING,
  TokenizerNotLoadedError,
} from '../../../functions/engine/text/tokens';

const ENGLISH_PROSE =
  'Mitochondria are membrane-bound organelles that generate most of the chemical energy needed to power ' +
  "the cell's biochemical reactions. Chemical energy produced by the mitochondria is stored in a small " +
  'molecule called adenosine triphosphate (ATP). Mitochondria contain their own small chromosomes.';

describe('countTokens before loading', () => {
  it('throws TokenizerNotLoadedError in a fresh module instance', async () => {
    vi.resetModules();
    const fresh = await import('../../../functions/engine/text/tokens');
    expect(fresh.isTokenizerLoaded()).toBe(false);
    expect(() => fresh.countTokens('hello world')).toThrow(fresh.TokenizerNotLoadedError);
    await fresh.loadTokenizer();
    expect(fresh.countTokens('hello world')).toBe(2);
  });
});

describe('countTokens (cl100k_base)', () => {
  beforeAll(async () => {
    await Promise.all([loadTokenizer(), loadTokenizer()]);
  });

  it('names its encoding and reports loaded', () => {
    expect(TOKEN_ENCODING).toBe('cl100k_base');
    expect(isTokenizerLoaded()).toBe(true);
    expect(new TokenizerNotLoadedError()).toBeInstanceOf(Error);
  });

  it('matches tiktoken on known strings', () => {
    expect(countTokens('hello world')).toBe(2); // [15339, 1917]
    expect(countTokens('tiktoken is great!')).toBe(6); // [83, 1609, 5963, 374, 2294, 0]
    expect(countTokens('')).toBe(0);
    expect(countTokens(' ')).toBe(1);
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    const count = countTokens('before <|endoftext|> after');
    expect(count).toBeGreaterThan(3);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('never counts more tokens than UTF-8 bytes', () => {
    for (const text of [ENGLISH_PROSE, 'naïve café 東京 🎉🎉', '{"a": [1, 2, 3]}']) {
      expect(countTokens(text)).toBeLessThanOrEqual(Buffer.byteLength(text, 'utf8'));
    }
  });
});

describe('estimateTokens', () => {
  it('is ceil(bytes / ESTIMATE_BYTES_PER_TOKEN) and 0 for nonsense sizes', () => {
    expect(ESTIMATE_BYTES_PER_TOKEN).toBe(2.5);
    expect(estimateTokens(0)).toBe(0);
    expect(estimateTokens(1)).toBe(1);
    expect(estimateTokens(5)).toBe(2);
    expect(estimateTokens(6)).toBe(3);
    expect(estimateTokens(2_500_000)).toBe(1_000_000);
    expect(estimateTokens(-5)).toBe(0);
    expect(estimateTokens(Number.NaN)).toBe(0);
    expect(estimateTokens(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('over-estimates English prose, JSON and Japanese', async () => {
    await loadTokenizer();
    const json = JSON.stringify({ users: [{ id: 1, name: 'Ada Lovelace', roles: ['admin', 'author'] }] });
    const japanese = '東京は日本の首都です。人口は約千四百万人で、世界最大の都市圏の一つです。';
    for (const text of [ENGLISH_PROSE, json, japanese]) {
      expect(estimateTokens(Buffer.byteLength(text, 'utf8'))).toBeGreaterThanOrEqual(countTokens(text));
    }
  });
});
