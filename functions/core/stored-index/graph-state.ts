/**
 * The stored graph state of an index version (a GraphSnapshot as JSON), read without loading the NLP
 * model: a base (`graph-state.json`) and the deltas after it (`graph-delta.json`), which the version's
 * manifest names (`graph`; a version without it holds its state whole in its own folder).
 */
import { applyGraphDelta, type GraphDelta, type GraphSnapshot } from '../../engine';
import type { ObjectStore } from '../ports';
import { INDEX_FILES } from './index-files';
import { folderOf, type GraphChain, type IndexManifest, nameOf, readManifest } from './manifest';

function parseGraphState(bytes: Uint8Array | undefined): GraphSnapshot | undefined {
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as GraphSnapshot) : undefined;
}

/** The graph chain of the version at `prefix` (under `root`); `baseBytes` 0 when the manifest does not say (an older version). */
export function graphChainOf(root: string, prefix: string, manifest: IndexManifest | undefined): GraphChain {
  const own = nameOf(root, prefix);
  return manifest?.graph ?? { base: own, deltas: [], state: own, baseBytes: 0, deltaBytes: 0 };
}

/** The index root a version folder lies in (`…/index/v3-…/` → `…/index/`). */
export const rootOf = (prefix: string): string => prefix.replace(/[^/]+\/$/, '');

/** The graph of the version published at `prefix`: its base with its deltas applied; undefined when gone. */
export async function readGraphState(objects: ObjectStore, prefix: string, manifest?: IndexManifest): Promise<GraphSnapshot | undefined> {
  const root = rootOf(prefix);
  const chain = graphChainOf(root, prefix, manifest ?? (await readManifest(objects, root, prefix)));
  return readGraphChain(objects, root, chain);
}

/** A chain's base with its deltas applied; undefined when a part of it is gone. */
export async function readGraphChain(objects: ObjectStore, root: string, chain: GraphChain): Promise<GraphSnapshot | undefined> {
  const [base, ...deltas] = await Promise.all([
    objects.get(folderOf(root, chain.base) + INDEX_FILES.state),
    ...chain.deltas.map((folder) => objects.get(folderOf(root, folder) + INDEX_FILES.delta)),
  ]);
  const snapshot = parseGraphState(base);
  if (!snapshot || deltas.some((bytes) => !bytes)) return undefined;
  return deltas.reduce<GraphSnapshot>(
    (graph, bytes) => applyGraphDelta(graph, JSON.parse(Buffer.from(bytes as Uint8Array).toString('utf8')) as GraphDelta),
    snapshot,
  );
}
