/** The two plain modules of graphology-layout-forceatlas2 the layout worker runs (the package types neither). */
declare module 'graphology-layout-forceatlas2/iterate.js' {
  /** One ForceAtlas2 iteration over the flat matrices (10 floats a node, 3 an edge), in place. */
  export default function iterate(settings: object, nodes: Float32Array, edges: Float32Array): void;
}

declare module 'graphology-layout-forceatlas2/defaults.js' {
  const defaults: Record<string, number | boolean>;
  export default defaults;
}
