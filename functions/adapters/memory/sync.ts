/**
 * The stores that coordinate workers, in memory: graph items with their writer's lease, a memory's (or an
 * account's message index's) pending conversation changes with their build lease, and the message index
 * pointer (the semantics of their DynamoDB repositories).
 */
import type { GraphEdge, GraphItemChanges, GraphItems, GraphItemsState, GraphNode } from '../../core/graph-items';
import type { Page, PageRequest } from '../../core/model';
import type { ConversationSyncStore, GraphItemStore, MessageIndexPointer, MessageIndexStore, PendingSync } from '../../core/ports';
import { AccountRecords, compare, copy, pageOf } from './records';

/** One memory's graph: nodes by id, edges by their place under their source (`source#id`), and the lease. */
interface StoredGraph {
  nodes: Map<string, GraphNode>;
  edges: Map<string, GraphEdge>;
  state?: GraphItemsState & { holder: string; leaseUntil: number };
}

const edgeKey = (edge: Pick<GraphEdge, 'source' | 'id'>) => `${edge.source}#${edge.id}`;
const sortedValues = <T>(entries: Map<string, T>): T[] => [...entries].sort(([a], [b]) => compare(a, b)).map(([, value]) => copy(value));

export class MemoryGraphItemStore implements GraphItemStore {
  private readonly graphs = new AccountRecords<StoredGraph>();

  async acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<GraphItemsState | undefined> {
    const graph = this.graphOf(accountId, memoryId);
    const before = graph.state;
    if (before && before.leaseUntil >= nowMs) return undefined;
    graph.state = { version: before?.version ?? 0, prefix: null, holder, leaseUntil: untilMs };
    this.graphs.put(accountId, memoryId, graph);
    return { version: before?.version ?? 0, prefix: before?.prefix ?? null };
  }

  async renew(accountId: string, memoryId: string, holder: string, untilMs: number): Promise<boolean> {
    const graph = this.graphOf(accountId, memoryId);
    if (graph.state?.holder !== holder) return false;
    graph.state.leaseUntil = untilMs;
    this.graphs.put(accountId, memoryId, graph);
    return true;
  }

  async release(accountId: string, memoryId: string, holder: string, state: GraphItemsState): Promise<void> {
    const graph = this.graphOf(accountId, memoryId);
    if (graph.state?.holder !== holder) return;
    graph.state = { version: state.version, prefix: state.prefix, holder, leaseUntil: 0 };
    this.graphs.put(accountId, memoryId, graph);
  }

  async apply(accountId: string, memoryId: string, changes: GraphItemChanges): Promise<void> {
    const graph = this.graphOf(accountId, memoryId);
    for (const node of changes.putNodes) graph.nodes.set(node.id, node);
    for (const edge of changes.putEdges) graph.edges.set(edgeKey(edge), edge);
    for (const id of changes.removeNodes) graph.nodes.delete(id);
    for (const edge of changes.removeEdges) graph.edges.delete(edgeKey(edge));
    this.graphs.put(accountId, memoryId, graph);
  }

  async readAll(accountId: string, memoryId: string): Promise<GraphItems> {
    const graph = this.graphOf(accountId, memoryId);
    return { nodes: sortedValues(graph.nodes), edges: sortedValues(graph.edges) };
  }

  async pageNodes(accountId: string, memoryId: string, page: PageRequest): Promise<Page<GraphNode>> {
    const nodes = [...this.graphOf(accountId, memoryId).nodes.values()];
    return pageOf(nodes, (node) => node.id, `graph|${accountId}|${memoryId}`, page);
  }

  async getNodes(accountId: string, memoryId: string, ids: readonly string[]): Promise<GraphNode[]> {
    const { nodes } = this.graphOf(accountId, memoryId);
    return [...new Set(ids)].flatMap((id) => {
      const node = nodes.get(id);
      return node ? [node] : [];
    });
  }

  async edgesFrom(accountId: string, memoryId: string, firstSource: string, lastSource: string): Promise<GraphEdge[]> {
    const from = `${firstSource}#`;
    const to = `${lastSource}#\uffff`;
    return sortedValues(this.graphOf(accountId, memoryId).edges).filter((edge) => edgeKey(edge) >= from && edgeKey(edge) <= to);
  }

  async deleteAll(accountId: string, memoryId: string): Promise<void> {
    this.graphs.delete(accountId, memoryId);
  }

  private graphOf(accountId: string, memoryId: string): StoredGraph {
    return this.graphs.get(accountId, memoryId) ?? { nodes: new Map(), edges: new Map() };
  }
}

/** Sessions marked per write in the table (each write counts one generation). */
const MARK_GROUP = 40;

/** A target's pending changes: every change adds to `generation`; `sessions` counts each session's changes since its last build. */
interface StoredSync {
  generation: number;
  sessions: Map<string, number>;
  holder?: string;
  leaseUntil?: number;
}

const pendingOf = (sync: StoredSync): PendingSync => ({ generation: sync.generation, sessions: new Map(sync.sessions) });

export class MemoryConversationSyncStore implements ConversationSyncStore {
  private readonly targets = new AccountRecords<StoredSync>();

  async markChanged(accountId: string, memoryId: string, sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const sync = this.syncOf(accountId, memoryId);
    sync.generation += Math.ceil(sessionIds.length / MARK_GROUP);
    for (const id of sessionIds) sync.sessions.set(id, (sync.sessions.get(id) ?? 0) + 1);
    this.targets.put(accountId, memoryId, sync);
  }

  async acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<PendingSync | undefined> {
    const sync = this.syncOf(accountId, memoryId);
    const free = sync.leaseUntil === undefined || sync.leaseUntil < nowMs || sync.holder === holder;
    if (!free) return undefined;
    Object.assign(sync, { holder, leaseUntil: untilMs });
    this.targets.put(accountId, memoryId, sync);
    return pendingOf(sync);
  }

  async settle(accountId: string, memoryId: string, holder: string, built: PendingSync, untilMs: number): Promise<PendingSync | undefined> {
    const sync = this.targets.get(accountId, memoryId);
    if (sync?.holder !== holder) return undefined;
    for (const [id, count] of built.sessions) {
      if (sync.sessions.get(id) === count) sync.sessions.delete(id); // a session changed again stays pending
    }
    if (sync.generation === built.generation) {
      this.targets.put(accountId, memoryId, { ...sync, holder: undefined, leaseUntil: 0 });
      return undefined;
    }
    sync.leaseUntil = untilMs;
    this.targets.put(accountId, memoryId, sync);
    return pendingOf(sync);
  }

  async release(accountId: string, memoryId: string, holder: string): Promise<void> {
    const sync = this.targets.get(accountId, memoryId);
    if (sync?.holder !== holder) return;
    this.targets.put(accountId, memoryId, { ...sync, holder: undefined, leaseUntil: 0 });
  }

  async delete(accountId: string, memoryId: string): Promise<void> {
    this.targets.delete(accountId, memoryId);
  }

  private syncOf(accountId: string, memoryId: string): StoredSync {
    return this.targets.get(accountId, memoryId) ?? { generation: 0, sessions: new Map() };
  }
}

export class MemoryMessageIndexStore implements MessageIndexStore {
  private readonly pointers = new AccountRecords<MessageIndexPointer>();

  async get(accountId: string): Promise<MessageIndexPointer | undefined> {
    return this.pointers.get(accountId, 'index');
  }

  async publish(accountId: string, expectedVersion: number, next: MessageIndexPointer): Promise<boolean> {
    const current = this.pointers.get(accountId, 'index');
    if ((current?.version ?? 0) !== expectedVersion || (expectedVersion === 0 && current)) return false;
    this.pointers.put(accountId, 'index', next);
    return true;
  }
}
