/**
 * ForceAtlas2 in a web worker: takes the node positions and edges as typed arrays, iterates (Barnes-Hut on
 * large graphs) until its iteration count or time budget is spent or it is told to stop, and answers the
 * final positions once. The page applies them in one refresh, so the main thread never lays out and the
 * renderer never reprocesses the graph while the layout runs.
 */
import { inferSettings } from 'graphology-layout-forceatlas2';
import defaults from 'graphology-layout-forceatlas2/defaults.js';
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import type { LayoutCommand, LayoutReport, LayoutRequest } from './layout-protocol';

/** Floats per node and per edge in ForceAtlas2's matrices (x, y, dx, dy, old dx, old dy, mass, convergence, size, fixed). */
const PER_NODE = 10;
const PER_EDGE = 3;
/** Barnes-Hut's accuracy on large graphs: coarser than the default 0.5, so an iteration costs about 2.5 times less. */
const LARGE_GRAPH_THETA = 1.2;
/** Iterate this long between looks at the message queue (a stop)... */
const SLICE_MS = 100;
/** ...and report progress at most this often (each report re-renders the page's tools, not the graph). */
const PROGRESS_MS = 500;

interface WorkerScope {
  postMessage(message: LayoutReport, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<LayoutCommand>) => void): void;
}
const scope = self as unknown as WorkerScope;
let stopping = false;

scope.addEventListener('message', ({ data }) => {
  if (data.type === 'stop') stopping = true;
  else run(data);
});

function matrices({ positions, sizes, edges }: LayoutRequest): { nodes: Float32Array; links: Float32Array } {
  const order = sizes.length;
  const nodes = new Float32Array(order * PER_NODE);
  for (let i = 0; i < order; i++) {
    const j = i * PER_NODE;
    nodes[j] = positions[2 * i] ?? 0;
    nodes[j + 1] = positions[2 * i + 1] ?? 0;
    nodes[j + 6] = 1; // mass: 1 + degree, below
    nodes[j + 7] = 1; // convergence
    nodes[j + 8] = sizes[i] ?? 1;
  }
  const size = edges.length / 2;
  const links = new Float32Array(size * PER_EDGE);
  for (let e = 0; e < size; e++) {
    const source = (edges[2 * e] ?? 0) * PER_NODE;
    const target = (edges[2 * e + 1] ?? 0) * PER_NODE;
    nodes[source + 6] = (nodes[source + 6] ?? 0) + 1;
    nodes[target + 6] = (nodes[target + 6] ?? 0) + 1;
    links.set([source, target, 1], e * PER_EDGE);
  }
  return { nodes, links };
}

function run(request: LayoutRequest): void {
  stopping = false;
  const started = performance.now();
  const order = request.sizes.length;
  const settings = { ...defaults, ...inferSettings(order), ...(order > 5000 ? { barnesHutTheta: LARGE_GRAPH_THETA } : {}) };
  const { nodes, links } = matrices(request);
  let iterations = 0;
  let reported = started;
  const slice = () => {
    const end = Math.min(performance.now() + SLICE_MS, started + request.budgetMs);
    while (iterations < request.maxIterations && !stopping && performance.now() < end) {
      iterate(settings, nodes, links);
      iterations++;
    }
    const finished = stopping || iterations >= request.maxIterations || performance.now() >= started + request.budgetMs;
    if (!finished) {
      if (performance.now() - reported >= PROGRESS_MS) {
        reported = performance.now();
        scope.postMessage({ type: 'progress', iterations });
      }
      setTimeout(slice, 0); // lets a stop in
      return;
    }
    const positions = new Float32Array(request.sizes.length * 2);
    for (let i = 0; i < request.sizes.length; i++) {
      positions[2 * i] = nodes[i * PER_NODE] ?? 0;
      positions[2 * i + 1] = nodes[i * PER_NODE + 1] ?? 0;
    }
    scope.postMessage({ type: 'done', positions, iterations, ms: performance.now() - started }, [positions.buffer]);
  };
  slice();
}
