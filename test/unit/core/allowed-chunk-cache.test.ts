/**
 * The allowed set of a retrieval scope is worked out once per (index, scope) and reused; any change of
 * the scope (excluded sources, window, a filter condition, the allowed sources of another source version)
 * works it out again, and a filter written in another order is the same scope.
 */
import { describe, expect, it } from 'vitest';
import { type AllowedSet, allowedSet } from '../../../functions/engine';
import { cachedAllowedChunks, type RetrievalScope } from '../../../functions/core/stored-index/allowed-chunk-cache';
import { filterKey } from '../../../functions/core/stored-index/search-filter';

function counting(): { build: () => AllowedSet; builds: () => number } {
  let builds = 0;
  return {
    build: () => {
      builds++;
      return allowedSet(10, (ordinal) => ordinal % 2 === 0);
    },
    builds: () => builds,
  };
}

const base: RetrievalScope = {
  excluded: ['f9'],
  filter: { fileIds: ['f1', 'f2'], metadata: { lang: ['de', 'fr'], team: ['a'] } },
  sources: new Set(['f1', 'f2']),
};

describe('allowed chunk cache', () => {
  it('works a scope out once per index and reuses it, whatever the order of the filter’s lists', () => {
    const index = {};
    const { build, builds } = counting();
    const first = cachedAllowedChunks(index, base, build);
    const reordered = { ...base, filter: { metadata: { team: ['a'], lang: ['fr', 'de'] }, fileIds: ['f2', 'f1'] } };
    expect(cachedAllowedChunks(index, reordered, build)).toBe(first);
    expect(builds()).toBe(1);
    cachedAllowedChunks({}, base, build); // another index version
    expect(builds()).toBe(2);
  });

  it('works it out again when anything in the scope changes', () => {
    const index = {};
    const { build, builds } = counting();
    cachedAllowedChunks(index, base, build);
    const changed: RetrievalScope[] = [
      { ...base, excluded: ['f9', 'f8'] },
      { ...base, after: '2026-01-01T00:00:00Z' },
      { ...base, before: '2026-01-01T00:00:00Z' },
      { ...base, filter: { ...base.filter, fileIds: ['f1'] } },
      { ...base, filter: { ...base.filter, roles: ['user'] } },
      { ...base, sources: new Set(['f1', 'f2']) }, // the sources of a new source version: another set
      { ...base, sources: undefined },
    ];
    for (const scope of changed) cachedAllowedChunks(index, scope, build);
    expect(builds()).toBe(1 + changed.length);
    for (const scope of changed) cachedAllowedChunks(index, scope, build);
    expect(builds()).toBe(1 + changed.length);
  });

  it('keeps the 32 most recently used scopes of an index', () => {
    const index = {};
    const { build, builds } = counting();
    const scopes = Array.from({ length: 33 }, (_, i) => ({ ...base, filter: { fileIds: [`f${i}`] } }));
    for (const scope of scopes) cachedAllowedChunks(index, scope, build);
    expect(builds()).toBe(33);
    cachedAllowedChunks(index, scopes[32] as RetrievalScope, build);
    expect(builds()).toBe(33);
    cachedAllowedChunks(index, scopes[0] as RetrievalScope, build); // the least recently used went
    expect(builds()).toBe(34);
  });

  it('keys filters canonically, and the source conditions apart', () => {
    expect(filterKey({ fileTypes: ['document', 'website'], sourceKeyPrefix: 'a/' })).toBe(
      filterKey({ sourceKeyPrefix: 'a/', fileTypes: ['website', 'document'] }),
    );
    expect(filterKey({ fileIds: ['x'] })).not.toBe(filterKey({ sessionIds: ['x'] }));
    expect(filterKey({ fileIds: ['x'], metadata: { k: ['v'] } }, true)).toBe(filterKey({ metadata: { k: ['v'] } }, true));
    expect(filterKey({ metadata: { k: ['v'] } }, true)).not.toBe(filterKey({ metadata: { k: ['w'] } }, true));
  });
});
