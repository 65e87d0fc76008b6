/**
 * The sigma renderer of the graph view, set for a large graph: nodes drawn as WebGL points (one vertex a
 * node; sigma's default circle program costs about four times as much a frame where WebGL is drawn by the
 * CPU), edges and labels hidden while the camera moves, labels only for nodes drawn large enough, straight
 * one-pixel edges, no hover detection while the view moves, and the selection and the
 * expanded neighbourhood drawn through reducers with partial refreshes (only the nodes that changed are
 * reprocessed; a full reprocessing happens once when drawn and once per finished layout run).
 */
import Sigma from 'sigma';
import { EdgeLineProgram, NodeCircleProgram, NodePointProgram } from 'sigma/rendering';
import type { EdgeAttributes, EntityGraph, NodeAttributes } from './model';

/** From this many nodes on, a graph counts as large: its edges and labels hide while the camera moves. */
const LARGE = 2000;

export type GraphRenderer = Sigma<NodeAttributes, EdgeAttributes>;

/** What the reducers draw differently: the selected node and, once a node is expanded, the nodes kept in view. */
export interface Emphasis {
  selected: string | undefined;
  focus: Set<string>;
}

export function createRenderer(graph: EntityGraph, container: HTMLElement, emphasis: Emphasis): GraphRenderer {
  const large = graph.order >= LARGE;
  performance.mark('kmem.graph.render-start');
  const renderer = new Sigma<NodeAttributes, EdgeAttributes>(graph, container, {
    labelRenderedSizeThreshold: graph.order < 500 ? 0 : 8,
    labelDensity: large ? 0.5 : 1,
    hideEdgesOnMove: large,
    hideLabelsOnMove: large,
    zIndex: false,
    defaultEdgeType: 'line',
    defaultEdgeColor: '#d0d4da',
    edgeProgramClasses: { line: EdgeLineProgram },
    nodeProgramClasses: { circle: large ? NodePointProgram : NodeCircleProgram },
    nodeReducer: (node, data) => {
      if (node === emphasis.selected) return { ...data, highlighted: true, forceLabel: true };
      if (!emphasis.focus.size) return data;
      return emphasis.focus.has(node) ? { ...data, forceLabel: true } : { ...data, hidden: true };
    },
  });
  performance.measure('kmem.graph.first-render', 'kmem.graph.render-start'); // the constructor processes and draws synchronously
  if (large) skipHoverWhileMoving(renderer);
  return renderer;
}

/**
 * Hover detection reads a pixel of the picking layer back on every mouse move, which waits for the frame
 * being drawn; while the view is dragged or zooms nothing can be hovered anyway, so sigma's own handler
 * runs only when the mouse moves over a still view.
 */
function skipHoverWhileMoving(renderer: GraphRenderer): void {
  const captor = renderer.getMouseCaptor();
  const camera = renderer.getCamera();
  for (const hover of captor.listeners('mousemove')) {
    captor.removeListener('mousemove', hover);
    captor.on('mousemove', (coordinates) => {
      if (!captor.isMouseDown && !camera.isAnimated()) hover(coordinates);
    });
  }
}

/** Redraws only `nodes` (and, when given, `edges`) through the reducers: no re-indexing, no full reprocessing. */
export function repaint(renderer: GraphRenderer, nodes: string[], edges: string[] = []): void {
  const graph = renderer.getGraph();
  renderer.refresh({
    partialGraph: { nodes: nodes.filter((n) => graph.hasNode(n)), edges },
    skipIndexation: true,
    schedule: true,
  });
}
