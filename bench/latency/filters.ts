/**
 * The filtered runs of bench:latency (`--filter`): the same warm sequential queries with a `filter` that
 * keeps 1% and 10% of the chunks (the corpus's files are about equal in size, so 1% and 10% of them), once
 * by `fileIDs` (a chunk condition) and once by `metadata` (a source condition, resolved against the file
 * records at every query). The metadata is set on the files over the API first (POST /files/metadata,
 * which re-ingests nothing), so a reused build serves too.
 */
import type { ApiClient } from '../support/api';
import { inParallel } from '../support/api';
import { listFiles } from './build';

export interface FilterPlan {
  /** The row's name, e.g. `fileIDs 1%`. */
  name: string;
  /** The share of the chunks the filter keeps (of the files, as planned). */
  share: number;
  /** The `filter` query parameter (JSON). */
  filter: string;
}

const SHARES = [0.01, 0.1] as const;
const SHARE_KEY = 'bench-share';

/** Tags the corpus's files and answers the filters keeping 1% and 10% of them. */
export async function filterPlans(api: ApiClient): Promise<FilterPlan[]> {
  const files = (await listFiles(api)).filter((file) => /^scifact-\d+\.txt$/.test(file.name)).sort((a, b) => a.name.localeCompare(b.name));
  const counts = SHARES.map((share) => Math.max(1, Math.round(share * files.length)));
  const widest = counts[counts.length - 1] ?? 0;
  // the first counts[0] files are tagged with the smallest share, the rest up to the widest with the next ones
  const tagOf = (i: number) => String(SHARES[counts.findIndex((count) => i < count)]);
  await inParallel(widest, 8, (i) => api.post(`/files/metadata/${files[i]!.id}`, { metadata: [{ key: SHARE_KEY, value: tagOf(i) }] }));
  return SHARES.flatMap((share, s) => {
    const count = counts[s] ?? 1;
    const kept = files.slice(0, count);
    const tags = SHARES.slice(0, s + 1).map(String);
    const percent = `${(share * 100).toFixed(0)}%`;
    return [
      { name: `fileIDs ${percent} (${count} files)`, share, filter: JSON.stringify({ fileIDs: kept.map((file) => file.id) }) },
      { name: `metadata ${percent} (${count} files)`, share, filter: JSON.stringify({ metadata: { [SHARE_KEY]: tags } }) },
    ];
  });
}
