/**
 * ForceAtlas2 off the main thread: a web worker (layout-worker.ts) lays out typed-array copies of the
 * positions and edges and answers the final positions once; they are written into the drawn graph in one
 * update, so sigma reprocesses the graph once per layout run, never per layout step, and panning and
 * zooming stay smooth while the worker runs.
 */
import type { LayoutReport, LayoutRequest } from './layout-protocol';
import type { EntityGraph } from './model';

/** A run stops after this many iterations or this long, whichever comes first (the user may stop it sooner). */
const MAX_ITERATIONS = 600;
const BUDGET_MS = 8000;

export interface LayoutState {
  running: boolean;
  iterations: number;
}

export class BackgroundLayout {
  private worker: Worker | undefined;
  private state: LayoutState = { running: false, iterations: 0 };

  constructor(
    private readonly graph: EntityGraph,
    private readonly onChange: (state: LayoutState) => void,
  ) {}

  get running(): boolean {
    return this.state.running;
  }

  start(): void {
    if (this.state.running || this.graph.order === 0) return;
    this.worker ??= this.spawn();
    performance.mark('kmem.graph.layout-start');
    const request = this.request();
    this.worker.postMessage(request, [request.positions.buffer, request.sizes.buffer, request.edges.buffer]);
    this.report({ running: true, iterations: 0 });
  }

  /** Stops the run early; the positions it reached are applied as when it ends. */
  stop(): void {
    this.worker?.postMessage({ type: 'stop' });
  }

  kill(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./layout-worker.ts', import.meta.url), { type: 'module', name: 'graph layout' });
    worker.addEventListener('message', ({ data }: MessageEvent<LayoutReport>) => {
      if (data.type === 'progress') return this.report({ running: true, iterations: data.iterations });
      performance.mark('kmem.graph.layout-applied');
      this.apply(data.positions);
      performance.measure('kmem.graph.layout', {
        start: 'kmem.graph.layout-start',
        detail: { iterations: data.iterations, workerMs: data.ms },
      });
      this.report({ running: false, iterations: data.iterations });
    });
    return worker;
  }

  private request(): LayoutRequest {
    const graph = this.graph;
    const index = new Map<string, number>();
    const positions = new Float32Array(graph.order * 2);
    const sizes = new Float32Array(graph.order);
    graph.forEachNode((node, a) => {
      const i = index.size;
      index.set(node, i);
      positions[2 * i] = a.x;
      positions[2 * i + 1] = a.y;
      sizes[i] = a.size;
    });
    const edges = new Uint32Array(graph.size * 2);
    let e = 0;
    graph.forEachEdge((_, __, source, target) => {
      edges[e++] = index.get(source) ?? 0;
      edges[e++] = index.get(target) ?? 0;
    });
    return { type: 'run', positions, sizes, edges, maxIterations: MAX_ITERATIONS, budgetMs: BUDGET_MS };
  }

  /** Writes the worker's positions into the graph in one update (one reprocessing by sigma). */
  private apply(positions: Float32Array): void {
    let i = 0;
    this.graph.updateEachNodeAttributes(
      (_, attributes) => {
        attributes.x = positions[2 * i] ?? attributes.x;
        attributes.y = positions[2 * i + 1] ?? attributes.y;
        i++;
        return attributes;
      },
      { attributes: ['x', 'y'] },
    );
  }

  private report(state: LayoutState): void {
    this.state = state;
    this.onChange(state);
  }
}
