/**
 * The parts a query over a composed lexical field reads (segment-compose.ts): the large segments as they
 * are, and the small ones (one-file ingestions) gathered into one merged segment of their live docs per
 * version, so a term costs one dictionary lookup and one list per large segment plus one for all the small
 * ones, not one per segment (the lexical side of the gathered vector table of vector-parts.ts).
 *
 * The gathered segment numbers the small parts' live docs 0..m-1, part after part, and maps them to
 * composed ordinals (ascending, as the parts' own maps are). It is a `mergeSegments` of those docs, so a
 * term's gathered list holds exactly the live postings the small parts hold: every doc's BM25 terms and
 * the summed document frequency are those of the parts, and scores are the same bits.
 *
 * A version sharing its first parts with the one before (same segments, same deletions: the usual case
 * when a file is added) merges the earlier gathered segment, cut to the docs of those parts, with its new
 * small parts: two dictionaries and a few new ones merged rather than every small segment again.
 */
import type { LexicalSegment, SegmentPart } from './segment';
import { mergeSegments } from './segment-merge';

/** Segments of fewer docs than this are gathered into one segment per version (the same bound as vector-parts.ts). */
export const GATHER_BELOW_DOCS = 4096;

/** How a composed field gathered its small parts: what a later version sharing its first parts takes. */
interface Gathering {
  segment: LexicalSegment;
  /** Gathered doc → composed ordinal, ascending. */
  ordinals: Int32Array;
  /** The indexes of the parts gathered, ascending, and the gathered doc count after each. */
  parts: number[];
  ends: number[];
}

/** Each gathering by the parts list a query reads (a composed field's `searched`). */
const gatherings = new WeakMap<readonly SegmentPart[], Gathering>();

/** What a composition keeps of the field it extends: the earlier composed field and how many first parts it shares. */
export interface GatherPrefix {
  segment: LexicalSegment;
  parts: number;
}

/**
 * The parts a query reads for a composed field of `parts`: the large parts, then one part of the small
 * ones gathered (when two or more of them hold live docs). Undefined when nothing is gathered (the query
 * reads `parts`).
 */
export function gatheredParts(
  parts: readonly SegmentPart[],
  gatherBelow = GATHER_BELOW_DOCS,
  prefix?: GatherPrefix,
): SegmentPart[] | undefined {
  const small: number[] = [];
  const large: SegmentPart[] = [];
  parts.forEach((part, p) => {
    if (!part.ordinals.some((ordinal) => ordinal >= 0)) return;
    if (part.segment.docIds.length < gatherBelow) small.push(p);
    else large.push(part);
  });
  if (small.length < 2) return undefined;
  const gathering = gather(parts, small, prefix && kept(prefix, small));
  const searched = [...large, { segment: gathering.segment, ordinals: gathering.ordinals }];
  gatherings.set(searched, gathering);
  return searched;
}

/** The earlier gathering's first docs this version keeps (those of its gathered parts among the shared ones). */
function kept(prefix: GatherPrefix, small: readonly number[]): { gathering: Gathering; parts: number; docs: number } | undefined {
  const earlier = prefix.segment.searched && gatherings.get(prefix.segment.searched);
  if (!earlier) return undefined;
  let parts = 0;
  while (parts < earlier.parts.length && (earlier.parts[parts] ?? 0) < prefix.parts) parts++;
  // the shared parts are the same segments with the same deletions, so the same of them are small and live
  const alike = parts > 0 && small.slice(0, parts).every((p, i) => p === earlier.parts[i]) && (small[parts] ?? Infinity) >= prefix.parts;
  return alike ? { gathering: earlier, parts, docs: earlier.ends[parts - 1] ?? 0 } : undefined;
}

/** One merged segment of the live docs of the `small` parts, the earlier gathering's first `docs` docs taken as they are. */
function gather(
  parts: readonly SegmentPart[],
  small: readonly number[],
  earlier?: { gathering: Gathering; parts: number; docs: number },
): Gathering {
  const local: SegmentPart[] = [];
  const composedOf: number[] = [];
  const ends: number[] = [];
  let next = 0;
  if (earlier) {
    const { segment, ordinals } = earlier.gathering;
    const identity = new Int32Array(segment.docIds.length).fill(-1);
    for (let doc = 0; doc < earlier.docs; doc++) identity[doc] = doc;
    local.push({ segment, ordinals: identity });
    for (let doc = 0; doc < earlier.docs; doc++) composedOf.push(ordinals[doc] ?? 0);
    ends.push(...earlier.gathering.ends.slice(0, earlier.parts));
    next = earlier.docs;
  }
  for (const p of small.slice(earlier?.parts ?? 0)) {
    const { segment, ordinals } = parts[p] as SegmentPart;
    const map = new Int32Array(ordinals.length).fill(-1);
    for (let doc = 0; doc < ordinals.length; doc++) {
      const composed = ordinals[doc] ?? -1;
      if (composed < 0) continue;
      map[doc] = next++;
      composedOf.push(composed);
    }
    local.push({ segment, ordinals: map });
    ends.push(next);
  }
  return { segment: mergeSegments(local, next), ordinals: Int32Array.from(composedOf), parts: [...small], ends };
}
