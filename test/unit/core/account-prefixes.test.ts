/**
 * An account's erasure deletes the objects under `objectKeys.accountPrefixes` and nothing else reaches
 * them: every key object-keys.ts composes for an account must lie under one of those prefixes.
 */
import { describe, expect, it } from 'vitest';
import { objectKeys } from '../../../functions/core/object-keys';

describe('objectKeys.accountPrefixes', () => {
  it('covers every key composed for an account, and no other account’s', () => {
    const prefixes = objectKeys.accountPrefixes('acct-1');
    const composers = Object.entries(objectKeys).filter(
      (entry): entry is [string, (...args: string[]) => string] => typeof entry[1] === 'function' && entry[0] !== 'accountPrefixes',
    );
    expect(composers.length).toBeGreaterThan(10);
    for (const [name, compose] of composers) {
      const key = compose('acct-1', 'part-2', '3', 'part-4');
      expect(
        prefixes.some((prefix) => key.startsWith(prefix)),
        `${name}: ${key}`,
      ).toBe(true);
    }
    expect(objectKeys.accountPrefixes('acct-10').some((prefix) => prefixes.some((mine) => prefix.startsWith(mine)))).toBe(false);
  });
});
