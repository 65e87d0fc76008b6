/** An entity's details from the entity look-up: aliases, relations, facts with their validity (latest first) and the passages behind it. */
import type { Api, Entity } from '../api';
import { href } from '../route';
import { ErrorLine, useLoad } from '../ui';
import { DatedList } from './dated';

interface Props {
  api: Api;
  memoryID: string;
  name: string;
  nodeID: string | undefined;
  onExpand: (id: string) => void;
  onPick: (id: string, name: string) => void;
  onClose: () => void;
}

export function EntityPanel({ api, memoryID, name, nodeID, onExpand, onPick, onClose }: Props) {
  const found = useLoad(() => api.entities(memoryID, name), [memoryID, name]);
  const entities = found.value ?? [];
  const entity = entities.find((e) => e.id === nodeID) ?? entities[0];
  return (
    <aside class="card panel entity" aria-label="entity details">
      <button type="button" class="close" onClick={onClose} aria-label="close details">
        ×
      </button>
      <ErrorLine error={found.error} />
      {found.value && !entity && <p>No entity matches “{name}”.</p>}
      {entity && <EntityDetails entity={entity} onExpand={onExpand} onPick={onPick} />}
      {entities.length > 1 && (
        <details>
          <summary>{entities.length - 1} other match(es)</summary>
          <ul class="plain">
            {entities
              .filter((e) => e !== entity)
              .map((e) => (
                <li>
                  <button type="button" class="link" onClick={() => onPick(e.id, e.name)}>
                    {e.name}
                  </button>{' '}
                  <small>{e.type}</small>
                </li>
              ))}
          </ul>
        </details>
      )}
    </aside>
  );
}

function EntityDetails({
  entity: e,
  onExpand,
  onPick,
}: {
  entity: Entity;
  onExpand: (id: string) => void;
  onPick: (id: string, name: string) => void;
}) {
  const aliases = e.aliases.filter((a) => a !== e.name);
  return (
    <>
      <h2 data-testid="entity-name">{e.name}</h2>
      <p>
        <span class="badge">{e.type}</span>
        {aliases.length > 0 && <> also: {aliases.join(', ')}</>}
      </p>
      <button type="button" onClick={() => onExpand(e.id)}>
        Expand neighbours
      </button>
      <h3>Relations</h3>
      {!e.relations.length && <p>None.</p>}
      <ul class="plain relations">
        {e.relations.map((r) => (
          <li>
            {r.direction === 'incoming' ? '← ' : ''}
            {r.relation}{' '}
            <button type="button" class="link" onClick={() => onPick(r.target.id, r.target.name)}>
              {r.target.name}
            </button>
          </li>
        ))}
      </ul>
      {e.facts.length > 0 && (
        <>
          <h3>Facts</h3>
          <DatedList entries={e.facts} label="facts" />
        </>
      )}
      <h3>Passages</h3>
      <ul class="passages">
        {e.passages.map((p) => (
          <li>
            {p.content} <a href={href('files', { file: p.fileID })}>source</a>
          </li>
        ))}
      </ul>
    </>
  );
}
