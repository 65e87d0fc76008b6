/**
 * Which sources a build of a memory's index may hold (docs/segments.md, "A build"). A first build, a
 * reindex and a restore list every link of the memory. An ingestion or a conversation sync into a memory
 * that has an index looks up the links of the sources it adds only: every other source of the index is
 * still linked, or excluded on the memory item, because
 *
 * - a link is deleted only after its source is excluded (removing a file or session, an import's prune;
 *   deleting the memory or taking a restore back empties the index too);
 * - an exclusion goes only when its source is linked again (`includeSources`, after the new link is
 *   written) or with the publish of a build that read it, which tombstoned the source's chunks in every
 *   segment it kept, and keeps the exclusion of a source it added while excluded (`forgottenExclusions`).
 *
 * So such a build need only visit the sources it adds and the memory's exclusions (`touched`).
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import type { Memory } from '../model';
import type { LinkStore, SessionLinkStore } from '../ports';
import { sessionSourceId, sourceRefOf } from '../source-ref';

export interface LinkDeps {
  links: LinkStore;
  sessionLinks: SessionLinkStore;
}

/** A build adding more sources than this lists the memory's links (one query beats many batched reads). */
const LOOKED_UP_AT_MOST = 1_000;

/** The sources the build may hold, and (when it need not visit every source) the ones it must visit. */
export interface BuildSources {
  linked: Pick<ReadonlySet<string>, 'has'>;
  /** The only sources that can have been replaced or have left the memory since its current version. */
  touched?: ReadonlySet<string>;
}

/**
 * The build's sources: every link listed unless `onlyAdded` (an ingestion or conversation sync into a
 * memory with an index, adding at most LOOKED_UP_AT_MOST sources), when the added sources' links are
 * looked up and every other source counts as linked (excluded ones leave through `excluded`).
 */
export async function buildSources(
  deps: LinkDeps,
  memory: Memory,
  added: ReadonlyMap<string, unknown>,
  onlyAdded: boolean,
): Promise<BuildSources> {
  if (!onlyAdded || added.size > LOOKED_UP_AT_MOST) return { linked: await everyLinkedSource(deps, memory) };
  const linkedAdded = await linkedAmong(deps, memory, [...added.keys()]);
  const linked = { has: (sourceId: string) => !added.has(sourceId) || linkedAdded.has(sourceId) };
  return { linked, touched: new Set([...added.keys(), ...memory.excludedFileIds]) };
}

/** The sources a memory's index may hold: its files and its attached sessions. */
async function everyLinkedSource(deps: LinkDeps, memory: Memory): Promise<Set<string>> {
  const [files, sessions] = await Promise.all([
    deps.links.listByMemory(memory.accountId, memory.id),
    deps.sessionLinks.listByMemory(memory.accountId, memory.id),
  ]);
  return new Set([...files.map((link) => link.fileId), ...sessions.map((link) => sessionSourceId(link.sessionId))]);
}

/** Which of `sourceIds` (files or sessions) are linked to the memory. */
async function linkedAmong(deps: LinkDeps, memory: Memory, sourceIds: readonly string[]): Promise<Set<string>> {
  const refs = sourceIds.map(sourceRefOf);
  const fileIds = refs.flatMap((ref) => (ref.kind === 'file' ? [ref.fileId] : []));
  const sessionIds = refs.flatMap((ref) => (ref.kind === 'session' ? [ref.sessionId] : []));
  const [files, sessions] = await Promise.all([
    fileIds.length > 0 ? deps.links.getMany(memory.accountId, memory.id, fileIds) : new Map(),
    mapConcurrently(sessionIds, STORE_CONCURRENCY, (sessionId) => deps.sessionLinks.get(memory.accountId, memory.id, sessionId)),
  ]);
  const linkedSessions = sessionIds.filter((_, i) => sessions[i] !== undefined).map(sessionSourceId);
  return new Set([...files.keys(), ...linkedSessions]);
}

/**
 * The exclusions a published build forgets: those it read, but not of a source it added while excluded
 * (it was being removed, its link not deleted yet, or linked again, not included yet): that one stays
 * excluded, and the next build takes it out unless its link was written again.
 */
export function forgottenExclusions(excluded: readonly string[], addedSources: ReadonlySet<string>): string[] {
  return excluded.filter((sourceId) => !addedSources.has(sourceId));
}

/** Whether a source stays in the memory after a build (what its graph keeps): linked, and not excluded unless the build adds it. */
export function staysAfter(scope: {
  linked: Pick<ReadonlySet<string>, 'has'>;
  excluded: ReadonlySet<string>;
  added: ReadonlyMap<string, unknown>;
}): Pick<ReadonlySet<string>, 'has'> {
  return { has: (sourceId) => scope.linked.has(sourceId) && (!scope.excluded.has(sourceId) || scope.added.has(sourceId)) };
}
