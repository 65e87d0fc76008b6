/**
 * Keeping a graph memory's table items (functions/core/graph-items.ts) equal to its graph. A build writes
 * the items of the graph it is about to publish, before publishing, so a memory that reads `ready` has its
 * items in place. Only what changed is written: the items are compared with the graph of the version they
 * hold (read from that build's folder), or with the items themselves when that folder is gone or a writer
 * died mid-way. One writer at a time holds the items' lease; another build waits for it. A build that then
 * loses the publish race builds again and rewrites the items from what they hold.
 */
import { diffGraphItems, type GraphItemChanges, graphItemsOf, type GraphItems, type GraphItemsState } from '../graph-items';
import type { Clock, GraphItemStore, IdGenerator, MemoryStore, ObjectStore } from '../ports';
import { graphChainOf, readGraphState, rootOf } from '../stored-index/graph-state';
import { readManifest } from '../stored-index/manifest';

/**
 * A writer's lease: short, and renewed every third of it while the writer lives, so a killed writer's
 * lease lapses within half a minute however large the graph it was writing.
 */
export const GRAPH_ITEMS_LEASE_MS = 30_000;
/** How long a build waits for a live writer (a large graph takes minutes), and how it looks: growing gaps. */
const WAIT_MS = 10 * 60 * 1000;
const FIRST_POLL_MS = 100;
const LONGEST_POLL_MS = 2_000;

export interface GraphItemsDeps {
  objects: ObjectStore;
  graphItems: GraphItemStore;
  clock: Clock;
  ids: IdGenerator;
}

/** The graph a build is about to publish: its items, its version and its folder. */
export interface GraphItemsTarget {
  /** All its items (made only when the items hold another graph than `from`'s). */
  items: () => GraphItems;
  version: number;
  prefix: string;
  /** What the build changed in the items of the graph it started from: the version at `prefix`, whose content is `state`. */
  from?: { prefix: string; state: string; changes: GraphItemChanges };
}

/** The graph of a build the caller has in hand (the one it started from), so it is not read again. */
export interface KnownGraph {
  prefix: string;
  items: GraphItems;
}

export async function writeGraphItems(
  deps: GraphItemsDeps,
  accountId: string,
  memoryId: string,
  target: GraphItemsTarget,
  known?: KnownGraph,
): Promise<void> {
  const holder = deps.ids.uuid();
  const held = await acquireWaiting(deps, accountId, memoryId, holder);
  if (held.prefix && held.version > target.version) {
    // a later version's items are in place already: never go back (this build cannot publish anyway)
    return deps.graphItems.release(accountId, memoryId, holder, held);
  }
  let reached: GraphItemsState = { version: held.version, prefix: null };
  const itemsHeld = async () => (await heldItems(deps, held, known)) ?? (await deps.graphItems.readAll(accountId, memoryId));
  const heartbeat = setInterval(() => {
    const until = deps.clock.now().getTime() + GRAPH_ITEMS_LEASE_MS;
    deps.graphItems.renew(accountId, memoryId, holder, until).catch(() => undefined); // the next beat tries again
  }, GRAPH_ITEMS_LEASE_MS / 3);
  try {
    const changes = (await changesFromHeld(deps, held, target.from)) ?? diffGraphItems(await itemsHeld(), target.items());
    await deps.graphItems.apply(accountId, memoryId, changes);
    reached = { version: target.version, prefix: target.prefix };
  } finally {
    clearInterval(heartbeat);
    await deps.graphItems.release(accountId, memoryId, holder, reached);
  }
}

/**
 * The `memory.graph-items` work: writes the items of the graph a memory has published, for a graph
 * memory built before its graph had table items (the graph view asks for it). Nothing to do when the
 * items already hold that version.
 */
export async function writePublishedGraphItems(
  deps: GraphItemsDeps & { memories: MemoryStore },
  accountId: string,
  memoryId: string,
): Promise<void> {
  const memory = await deps.memories.get(accountId, memoryId);
  if (memory?.memoryType !== 'graph' || !memory.indexPrefix) return;
  const items = await storedItems(deps, memory.indexPrefix);
  if (!items) return; // replaced meanwhile: that build wrote its own items
  const target = { items: () => items, version: memory.indexVersion, prefix: memory.indexPrefix };
  await writeGraphItems(deps, accountId, memoryId, target, { prefix: memory.indexPrefix, items });
}

async function acquireWaiting(deps: GraphItemsDeps, accountId: string, memoryId: string, holder: string): Promise<GraphItemsState> {
  const started = deps.clock.now().getTime();
  for (let gap = FIRST_POLL_MS; ; gap = Math.min(gap * 2, LONGEST_POLL_MS)) {
    const now = deps.clock.now().getTime();
    const held = await deps.graphItems.acquire(accountId, memoryId, holder, now, now + GRAPH_ITEMS_LEASE_MS);
    if (held) return held;
    if (now - started > WAIT_MS) throw new Error(`the graph items of memory ${memoryId} stayed locked for ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, gap));
  }
}

/** The items of the build the items say they hold; undefined when unknown or gone. */
async function heldItems(deps: GraphItemsDeps, held: GraphItemsState, known: KnownGraph | undefined): Promise<GraphItems | undefined> {
  if (!held.prefix) return undefined;
  return held.prefix === known?.prefix ? known.items : storedItems(deps, held.prefix);
}

/** The items of the graph stored under an index prefix; undefined when that build is gone. */
async function storedItems(deps: GraphItemsDeps, prefix: string): Promise<GraphItems | undefined> {
  const snapshot = await readGraphState(deps.objects, prefix);
  return snapshot ? graphItemsOf(snapshot) : undefined;
}

/** The build's changes, when the items hold the graph it started from (that version, or one with the same content); else undefined. */
async function changesFromHeld(
  deps: GraphItemsDeps,
  held: GraphItemsState,
  from: GraphItemsTarget['from'],
): Promise<GraphItemChanges | undefined> {
  if (!from || !held.prefix) return undefined;
  if (held.prefix === from.prefix) return from.changes;
  const root = rootOf(held.prefix);
  const manifest = await readManifest(deps.objects, root, held.prefix);
  return manifest && graphChainOf(root, held.prefix, manifest).state === from.state ? from.changes : undefined;
}
