/**
 * The parts a query over a composed lexical field reads (segment-compose.ts): the large segments as they
 * are, and the small ones (one-file ingestions) gathered into merged segments of their live docs, so a
 * term costs one dictionary lookup and one list per large segment and per group of small ones, not one
 * per segment (the lexical side of the gathered vector table of vector-parts.ts; the composition decides
 * the bound between small and large, the same for both).
 *
 * A gathered segment numbers its parts' live docs 0..m-1, part after part, and maps them to composed
 * ordinals (ascending, as the parts' own maps are). It is a `mergeSegments` of those docs, so a term's
 * gathered list holds exactly the live postings the parts hold: every doc's BM25 terms and the summed
 * document frequency are those of the parts, and scores are the same bits.
 *
 * The small parts are gathered in groups, consecutive parts each, a group closed once it holds twice the
 * gathering bound in docs. A version sharing its first parts with the one before (same segments, same
 * deletions: the usual case when a file is added) takes the earlier closed groups of those parts as they
 * are and merges the last earlier group, cut to the docs of those parts, with its new small parts: what a
 * version merges is bounded (a group's docs), however many small segments came before, and a query reads
 * one list per group.
 */
import type { LexicalSegment, SegmentPart } from './segment';
import { mergeSegments } from './segment-merge';

/** Consecutive small parts gathered into one merged segment. */
interface Group {
  segment: LexicalSegment;
  /** Gathered doc → composed ordinal, ascending. */
  ordinals: Int32Array;
  /** The indexes of the parts gathered, ascending, and the gathered doc count after each. */
  parts: number[];
  ends: number[];
  /** Whether it held twice the bound in docs when made: it takes no more parts. */
  closed: boolean;
}

/** Each composed field's groups, by the parts list a query reads (its `searched`). */
const gatherings = new WeakMap<readonly SegmentPart[], readonly Group[]>();

/** What a composition keeps of the field it extends: the earlier composed field and how many first parts it shares. */
export interface GatherPrefix {
  segment: LexicalSegment;
  parts: number;
}

/**
 * The parts a query reads for a composed field of `parts`: the large parts, then the parts of fewer than
 * `gatherBelow` docs gathered in groups (when two or more of them hold live docs). Undefined when nothing
 * is gathered (the query reads `parts`), as without `gatherBelow`.
 */
export function gatheredParts(parts: readonly SegmentPart[], gatherBelow?: number, prefix?: GatherPrefix): SegmentPart[] | undefined {
  if (gatherBelow === undefined) return undefined;
  const small: number[] = [];
  const large: SegmentPart[] = [];
  parts.forEach((part, p) => {
    if (!part.ordinals.some((ordinal) => ordinal >= 0)) return;
    if (part.segment.docIds.length < gatherBelow) small.push(p);
    else large.push(part);
  });
  if (small.length < 2) return undefined;
  const { groups, open } = keptGroups(small, prefix);
  const rest = small.slice(groups.reduce((n, group) => n + group.parts.length, open?.parts ?? 0));
  if (open && rest.length === 0 && open.parts === open.group.parts.length)
    groups.push(open.group); // nothing new: as it is
  else groups.push(...gather(parts, rest, 2 * gatherBelow, open));
  const searched = [...large, ...groups.map(({ segment, ordinals }) => ({ segment, ordinals }))];
  gatherings.set(searched, groups);
  return searched;
}

/** An earlier group's first `parts` parts (its first `docs` docs), to extend. */
interface OpenGroup {
  group: Group;
  parts: number;
  docs: number;
}

/**
 * The earlier groups this version takes: those whose parts all lie among the shared ones, as they are,
 * while closed; then the first group it shares only some parts of, or that was still open, to extend.
 */
function keptGroups(small: readonly number[], prefix?: GatherPrefix): { groups: Group[]; open?: OpenGroup } {
  const earlier = (prefix?.segment.searched && gatherings.get(prefix.segment.searched)) ?? [];
  const groups: Group[] = [];
  let next = 0; // the next of `small` to find in the earlier groups
  for (const group of earlier) {
    let shared = 0;
    while (shared < group.parts.length && group.parts[shared] === small[next + shared] && (group.parts[shared] ?? 0) < (prefix?.parts ?? 0))
      shared++;
    if (shared === group.parts.length && group.closed) {
      groups.push(group);
      next += shared;
      continue;
    }
    return shared > 0 ? { groups, open: { group, parts: shared, docs: group.ends[shared - 1] ?? 0 } } : { groups };
  }
  return { groups };
}

/** The `small` parts (indexes in `parts`) gathered in groups of `groupDocs` docs or so, the first extending `open`. */
function gather(parts: readonly SegmentPart[], small: readonly number[], groupDocs: number, open?: OpenGroup): Group[] {
  const groups: Group[] = [];
  let building = open ? startFrom(open) : undefined;
  for (const p of small) {
    building ??= { local: [], composedOf: [], parts: [], ends: [], docs: 0 };
    const { segment, ordinals } = parts[p] as SegmentPart;
    const map = new Int32Array(ordinals.length).fill(-1);
    for (let doc = 0; doc < ordinals.length; doc++) {
      const composed = ordinals[doc] ?? -1;
      if (composed < 0) continue;
      map[doc] = building.docs++;
      building.composedOf.push(composed);
    }
    building.local.push({ segment, ordinals: map });
    building.parts.push(p);
    building.ends.push(building.docs);
    if (building.docs >= groupDocs) {
      groups.push(made(building, true));
      building = undefined;
    }
  }
  if (building && building.parts.length > 0) groups.push(made(building, false));
  return groups;
}

/** A group being made: the parts it merges (their docs mapped to the group's), and where its docs go. */
interface Building {
  local: SegmentPart[];
  composedOf: number[];
  parts: number[];
  ends: number[];
  docs: number;
}

/** A group made of an earlier group's first docs, the rest of its docs dropped. */
function startFrom({ group, parts, docs }: OpenGroup): Building {
  const { segment, ordinals } = group;
  const kept = new Int32Array(segment.docIds.length).fill(-1);
  for (let doc = 0; doc < docs; doc++) kept[doc] = doc;
  return {
    local: [{ segment, ordinals: kept }],
    composedOf: Array.from(ordinals.subarray(0, docs)),
    parts: group.parts.slice(0, parts),
    ends: group.ends.slice(0, parts),
    docs,
  };
}

function made({ local, composedOf, parts, ends, docs }: Building, closed: boolean): Group {
  return { segment: mergeSegments(local, docs), ordinals: Int32Array.from(composedOf), parts, ends, closed };
}
