/**
 * The graph side's list alone, for the harness's diagnostic "graph (PPR)" row and `tune.ts --graph`: the
 * route's own walk (`graphList` of functions/core/use-cases/retrieve-memory.ts, which `retrieveFromIndex`
 * fuses for a graph memory) over a graph memory's built segment.
 */
export { graphList } from '../../functions/core/use-cases/retrieve-memory';
