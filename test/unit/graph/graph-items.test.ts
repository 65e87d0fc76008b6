/** The table form of a graph: items from a snapshot, and the writes that turn one version into the next. */
import { describe, expect, it } from 'vitest';
import { diffGraphItems, type GraphEdge, type GraphNode } from '../../../functions/core/graph-items';

const node = (id: string, support = 1): GraphNode => ({ id, name: id, type: 'person', aliases: [id], mentions: support, support });
const edge = (id: string, source: string, weight = 1): GraphEdge => ({
  id,
  source,
  target: 'e-z',
  predicate: 'met',
  kind: 'svo',
  weight,
  support: 1,
});

describe('diffGraphItems', () => {
  it('writes new and changed items, deletes gone ones, and leaves equal ones alone', () => {
    const before = { nodes: [node('e-a'), node('e-b'), node('e-c')], edges: [edge('r-1', 'e-a'), edge('r-2', 'e-b')] };
    const after = { nodes: [node('e-a'), node('e-b', 2), node('e-d')], edges: [edge('r-1', 'e-a', 3), edge('r-3', 'e-d')] };
    const changes = diffGraphItems(before, after);
    expect(changes.putNodes.map((n) => n.id)).toEqual(['e-b', 'e-d']);
    expect(changes.removeNodes).toEqual(['e-c']);
    expect(changes.putEdges.map((e) => e.id)).toEqual(['r-1', 'r-3']);
    expect(changes.removeEdges).toEqual([{ id: 'r-2', source: 'e-b' }]);
  });

  it('moves an edge whose source changed (it is stored under its source)', () => {
    const changes = diffGraphItems({ nodes: [], edges: [edge('r-1', 'e-a')] }, { nodes: [], edges: [edge('r-1', 'e-b')] });
    expect(changes.putEdges).toEqual([edge('r-1', 'e-b')]);
    expect(changes.removeEdges).toEqual([{ id: 'r-1', source: 'e-a' }]);
  });

  it('is empty between equal graphs', () => {
    const items = { nodes: [node('e-a')], edges: [edge('r-1', 'e-a')] };
    expect(diffGraphItems(items, structuredClone(items))).toEqual({ putNodes: [], putEdges: [], removeNodes: [], removeEdges: [] });
  });
});
