/**
 * The graph view: WebGL (sigma.js) over the whole graph memory, laid out by ForceAtlas2 in a web worker,
 * coloured by entity type; search an entity, click a node for its details, expand its neighbours; look up
 * a customer user's profile.
 */
import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Api } from '../api';
import { colourOf, type EntityGraph, loadGraph, typesOf } from '../graph/model';
import { EntityPanel } from '../graph/entity-panel';
import { ProfilePanel } from '../graph/profile-panel';
import { BackgroundLayout, type LayoutState } from '../graph/layout';
import { createRenderer, type Emphasis, type GraphRenderer, repaint } from '../graph/renderer';
import { ErrorLine, messageOf, num, useLoad } from '../ui';

export function GraphScreen({ api, memoryID }: { api: Api; memoryID: string }) {
  const memories = useLoad(() => api.allMemories({ memoryType: 'graph' }), []);
  const chosen = memoryID || memories.value?.[0]?.id || '';
  return (
    <section aria-labelledby="graph-title" class="graph-screen">
      <h1 id="graph-title">Graph</h1>
      <label class="field inline">
        <span>Memory</span>
        <select
          aria-label="Memory"
          onFocus={memories.reload}
          value={chosen}
          onChange={(e) => (location.hash = `#/graph?memory=${(e.currentTarget as HTMLSelectElement).value}`)}
        >
          {memories.value?.map((m) => (
            <option value={m.id}>{m.name}</option>
          ))}
        </select>
      </label>
      <ErrorLine error={memories.error} />
      {memories.value && !chosen && <p>No graph memory yet: create one on the Memories screen.</p>}
      {chosen && <GraphView key={chosen} api={api} memoryID={chosen} />}
    </section>
  );
}

/** The whole graph memory, fetched page after page, with how many nodes have arrived so far. */
function useEntityGraph(api: Api, memoryID: string) {
  const [graph, setGraph] = useState<EntityGraph | undefined>(undefined);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    performance.mark('kmem.graph.fetch-start');
    loadGraph(api, memoryID, setLoaded).then(
      (g) => {
        performance.measure('kmem.graph.fetch', 'kmem.graph.fetch-start');
        setGraph(g);
      },
      (e: unknown) => setError(messageOf(e)),
    );
  }, [memoryID]);
  return { graph, loaded, error };
}

/** sigma and the layout worker of a loaded graph: made once per graph, killed with the view. */
function useRenderer(
  graph: EntityGraph | undefined,
  container: RefObject<HTMLDivElement | null>,
  emphasis: Emphasis,
  onSelect: (node: { id: string; name: string }) => void,
) {
  const [layoutState, setLayoutState] = useState<LayoutState>({ running: false, iterations: 0 });
  const sigma = useRef<GraphRenderer | undefined>(undefined);
  const layout = useRef<BackgroundLayout | undefined>(undefined);
  useEffect(() => {
    if (!graph || !container.current) return undefined;
    const renderer = createRenderer(graph, container.current, emphasis);
    renderer.on('clickNode', ({ node }) => onSelect({ id: node, name: graph.getNodeAttribute(node, 'label') }));
    sigma.current = renderer;
    const fa2 = new BackgroundLayout(graph, (state) => {
      setLayoutState(state);
      if (state.running) return;
      // the new positions are reprocessed in sigma's next render: the one pause a layout run costs
      renderer.once('afterRender', () => performance.measure('kmem.graph.layout-reprocess', 'kmem.graph.layout-applied'));
      if (!emphasis.selected) void renderer.getCamera().animatedReset({ duration: 300 });
    });
    layout.current = fa2;
    fa2.start();
    return () => {
      fa2.kill();
      renderer.kill();
    };
  }, [graph]);
  return { sigma, layout, layoutState };
}

function GraphView({ api, memoryID }: { api: Api; memoryID: string }) {
  const container = useRef<HTMLDivElement>(null);
  const { graph, loaded, error } = useEntityGraph(api, memoryID);
  const [selected, setSelected] = useState<{ id?: string; name: string } | undefined>(undefined);
  // read by sigma's reducers, never a reason to re-render this component
  const emphasis = useRef<Emphasis>({ selected: undefined, focus: new Set() });
  const { sigma, layout, layoutState } = useRenderer(graph, container, emphasis.current, setSelected);

  useEffect(() => {
    const previous = emphasis.current.selected;
    emphasis.current.selected = selected?.id;
    const renderer = sigma.current;
    if (!renderer || previous === selected?.id) return;
    repaint(
      renderer,
      [previous, selected?.id].filter((n): n is string => !!n),
    );
    const position = selected?.id && graph?.hasNode(selected.id) ? renderer.getNodeDisplayData(selected.id) : undefined;
    if (position)
      void renderer.getCamera().animate({ x: position.x, y: position.y, ratio: (graph?.order ?? 0) > 300 ? 0.3 : 1 }, { duration: 400 });
  }, [selected?.id]);

  const refocus = (change: (focus: Set<string>) => void) => {
    const renderer = sigma.current;
    if (!renderer || !graph) return;
    change(emphasis.current.focus);
    repaint(renderer, graph.nodes(), graph.edges());
  };
  const expand = (id: string) => graph?.hasNode(id) && refocus((focus) => (focus.add(id), graph.forEachNeighbor(id, (n) => focus.add(n))));
  const showAll = () => refocus((focus) => focus.clear());
  const toggleLayout = () => (layout.current?.running ? layout.current.stop() : layout.current?.start());

  return (
    <div class="graph-layout">
      <div class="graph-tools">
        <p data-testid="graph-status" role="status">
          {graph ? `${num(graph.order)} entities, ${num(graph.size)} relations` : `loading… ${num(loaded)} entities`}
        </p>
        <ErrorLine error={error} />
        <EntitySearch onFind={(name) => setSelected({ name, id: findNode(graph, name) })} />
        {graph && <GraphTools graph={graph} layout={layoutState} onToggleLayout={toggleLayout} onShowAll={showAll} />}
        <ProfilePanel api={api} memoryID={memoryID} />
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

interface ToolsProps {
  graph: EntityGraph;
  layout: LayoutState;
  onToggleLayout: () => void;
  onShowAll: () => void;
}

function GraphTools({ graph, layout, onToggleLayout, onShowAll }: ToolsProps) {
  const legend = useMemo(() => typesOf(graph).slice(0, 12), [graph]);
  return (
    <>
      <button type="button" onClick={onToggleLayout}>
        {layout.running ? 'Stop layout' : 'Run layout'}
      </button>
      <button type="button" onClick={onShowAll}>
        Show all
      </button>
      {layout.running && (
        <p class="muted" data-testid="layout-status">
          laying out… {num(layout.iterations)} iterations
        </p>
      )}
      <ul class="legend" aria-label="entity types">
        {legend.map(([type, count]) => (
          <li>
            <span class="swatch" style={{ background: colourOf(type) }} /> {type} ({num(count)})
          </li>
        ))}
      </ul>
    </>
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
      <label class="field">
        <span>Find an entity</span>
        <input aria-label="Find an entity" name="entity" />
      </label>
      <button type="submit">Find</button>
    </form>
  );
}
