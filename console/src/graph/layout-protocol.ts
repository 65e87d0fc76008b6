/** The messages between the graph view and its layout worker (plain typed arrays, transferred, not copied). */

/** A graph to lay out: node i at (positions[2i], positions[2i+1]) with sizes[i]; edge j joins edges[2j] and edges[2j+1]. */
export interface LayoutRequest {
  type: 'run';
  positions: Float32Array;
  sizes: Float32Array;
  edges: Uint32Array;
  /** At most this many ForceAtlas2 iterations... */
  maxIterations: number;
  /** ...and at most this long (ms), whichever ends first. */
  budgetMs: number;
}

export type LayoutCommand = LayoutRequest | { type: 'stop' };

export type LayoutReport =
  | { type: 'progress'; iterations: number }
  | { type: 'done'; positions: Float32Array; iterations: number; ms: number };
