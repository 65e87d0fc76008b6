/**
 * A warm worker's graphs (docs/segments.md, "The graph of graph memories"): the graph of the version a
 * worker last published for a memory, kept by memory and by the graph's content key (the manifest's
 * `graph.state`), so the memory's next build from that version takes it instead of reading and restoring
 * the stored graph. A build takes the graph out (it changes it in place) and puts the changed graph back
 * only once its version is published: a build that fails, or loses the publish to another writer, leaves
 * nothing behind, and the next build reads the stored graph.
 */
import type { MemoryGraph } from '../../engine/graph';

interface Kept {
  state: string;
  graph: MemoryGraph;
}

export class GraphCache {
  private readonly kept = new Map<string, Kept>();

  /** `capacity`: memories kept (least recently published dropped first). */
  constructor(private readonly capacity: number) {}

  /** The kept graph of `memory` when its content is `state`, taken out of the cache; else undefined. */
  take(memory: MemoryKey, state: string): MemoryGraph | undefined {
    const key = keyOf(memory);
    const kept = this.kept.get(key);
    this.kept.delete(key);
    return kept?.state === state ? kept.graph : undefined;
  }

  /** Keeps `graph`, the graph of `memory` whose content is `state` (a published version's). */
  keep(memory: MemoryKey, state: string, graph: MemoryGraph): void {
    const key = keyOf(memory);
    this.kept.delete(key);
    this.kept.set(key, { state, graph });
    while (this.kept.size > this.capacity) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
  }
}

interface MemoryKey {
  accountId: string;
  id: string;
}

const keyOf = (memory: MemoryKey): string => `${memory.accountId}/${memory.id}`;
