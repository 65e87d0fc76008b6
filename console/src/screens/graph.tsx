/**
 * The graph view: WebGL (sigma.js) over the whole graph memory, laid out by ForceAtlas2 in a web worker,
 * coloured by entity type; search an entity, click a node for its details, expand its neighbours.
 */
import Sigma from 'sigma';
import { EdgeLineProgram } from 'sigma/rendering';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api';
import { colourOf, type EdgeAttributes, type EntityGraph, loadGraph, type NodeAttributes, typesOf } from '../graph/model';
import { EntityPanel } from '../graph/entity-panel';
import { BackgroundLayout } from '../graph/layout';
import { ErrorLine, messageOf, num, useLoad } from '../ui';

export function GraphScreen({ api, memoryID }: { api: Api; memoryID: string }) {
  const memories = useLoad(() => api.listMemories({ memoryType: 'graph' }), []);
  const chosen = memoryID || memories.value?.items[0]?.id || '';
  return (
    <section aria-labelledby="graph-title" class="graph-screen">
      <h1 id="graph-title">Graph</h1>
      <label class="field inline">
        <span>Memory</span>
        <select aria-label="Memory" value={chosen} onChange={(e) => (location.hash = `#/graph?memory=${(e.currentTarget as HTMLSelectElement).value}`)}>
          {memories.value?.items.map((m) => <option value={m.id}>{m.name}</option>)}
        </select>
      </label>
      <ErrorLine error={memories.error} />
      {memories.value && !chosen && <p>No graph memory yet: create one on the Memories screen.</p>}
      {chosen && <GraphView key={chosen} api={api} memoryID={chosen} />}
    </section>
  );
}

function GraphView({ api, memoryID }: { api: Api; memoryID: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [graph, setGraph] = useState<EntityGraph | undefined>(undefined);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<{ id?: string; name: string } | undefined>(undefined);
  const focus = useRef(new Set<string>());
  const sigma = useRef<Sigma<NodeAttributes, EdgeAttributes> | undefined>(undefined);
  const [layoutRunning, setLayoutRunning] = useState(false);
  const layout = useRef<BackgroundLayout | undefined>(undefined);

  useEffect(() => {
    loadGraph(api, memoryID, setLoaded).then(setGraph, (e: unknown) => setError(messageOf(e)));
  }, [memoryID]);

  useEffect(() => {
    if (!graph || !container.current) return undefined;
    const renderer = new Sigma<NodeAttributes, EdgeAttributes>(graph, container.current, {
      labelRenderedSizeThreshold: graph.order < 500 ? 0 : 8,
      hideEdgesOnMove: graph.size > 5000,
      defaultEdgeType: 'line',
      edgeProgramClasses: { line: EdgeLineProgram },
      nodeReducer: (node, data) => {
        if (!focus.current.size && node !== selectedRef.current) return data;
        return { ...data, hidden: focus.current.size > 0 && !focus.current.has(node), highlighted: node === selectedRef.current };
      },
    });
    renderer.on('clickNode', ({ node }) => setSelected({ id: node, name: graph.getNodeAttribute(node, 'label') }));
    sigma.current = renderer;
    const fa2 = new BackgroundLayout(graph);
    layout.current = fa2;
    fa2.start();
    setLayoutRunning(true);
    const stop = setTimeout(() => {
      fa2.stop();
      setLayoutRunning(false);
      if (!selectedRef.current) void renderer.getCamera().animatedReset({ duration: 300 });
    }, Math.min(10_000, 2000 + graph.order));
    return () => {
      clearTimeout(stop);
      fa2.kill();
      renderer.kill();
    };
  }, [graph]);

  const selectedRef = useRef<string | undefined>(undefined);
  selectedRef.current = selected?.id;
  useEffect(() => {
    const renderer = sigma.current;
    if (!renderer || !graph || !selected?.id || !graph.hasNode(selected.id)) return;
    renderer.refresh();
    const position = renderer.getNodeDisplayData(selected.id);
    if (position) void renderer.getCamera().animate({ x: position.x, y: position.y, ratio: graph.order > 300 ? 0.3 : 1 }, { duration: 400 });
  }, [selected?.id]);

  const expand = (id: string) => {
    if (!graph?.hasNode(id)) return;
    focus.current.add(id);
    graph.forEachNeighbor(id, (n) => focus.current.add(n));
    sigma.current?.refresh();
  };
  const showAll = () => (focus.current.clear(), sigma.current?.refresh());
  const toggleLayout = () => {
    const fa2 = layout.current;
    if (!fa2) return;
    if (fa2.running) fa2.stop();
    else fa2.start();
    setLayoutRunning(fa2.running);
  };

  return (
    <div class="graph-layout">
      <div class="graph-tools">
        <p data-testid="graph-status" role="status">
          {graph ? `${num(graph.order)} entities, ${num(graph.size)} relations` : `loading… ${num(loaded)} entities`}
        </p>
        <ErrorLine error={error} />
        <EntitySearch onFind={(name) => setSelected({ name, id: findNode(graph, name) })} />
        {graph && (
          <>
            <button type="button" onClick={toggleLayout}>{layoutRunning ? 'Stop layout' : 'Run layout'}</button>
            <button type="button" onClick={showAll}>Show all</button>
            <ul class="legend" aria-label="entity types">
              {typesOf(graph).slice(0, 12).map(([type, count]) => (
                <li><span class="swatch" style={{ background: colourOf(type) }} /> {type} ({num(count)})</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div class="graph-canvas" ref={container} aria-label="knowledge graph" role="img" />
      {selected && (
        <EntityPanel
          api={api}
          memoryID={memoryID}
          name={selected.name}
          nodeID={selected.id}
          onExpand={expand}
          onPick={(id, name) => setSelected({ id, name })}
          onClose={() => setSelected(undefined)}
        />
      )}
    </div>
  );
}

/** The loaded node whose name (or alias) is `name`, case aside. */
function findNode(graph: EntityGraph | undefined, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  return graph?.findNode((_, a) => a.label.toLowerCase() === wanted || a.aliases.some((x) => x.toLowerCase() === wanted));
}

function EntitySearch({ onFind }: { onFind: (name: string) => void }) {
  const submit = (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('entity') ?? '').trim();
    if (name) onFind(name);
  };
  return (
    <form onSubmit={submit} role="search" aria-label="find an entity">
      <label class="field"><span>Find an entity</span><input aria-label="Find an entity" name="entity" /></label>
      <button type="submit">Find</button>
    </form>
  );
}
