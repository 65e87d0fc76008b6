/** Memories: each with its type, step and counts, created with the settings the interface allows, deleted after a confirmation. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, ApiError, MemoryDetails } from '../api';
import { href } from '../route';
import { ErrorLine, Field, FormError, Pager, StateBadge, messageOf, num, toApiError, useLoad, usePages } from '../ui';
import { ExportButton, RestoreMemory } from './portability';

const ONTOLOGIES = ['culture', 'essays', 'support_requests'];
const FIELDS = ['name', 'description', 'memoryType', 'ontology', 'chunkSize', 'chunkOverlap', 'factExtraction'];

export function MemoriesScreen({ api }: { api: Api }) {
  const pages = usePages();
  const memories = useLoad(
    async () => {
      const page = await api.listMemories({ limit: 25, ...pages.query });
      return { ...page, details: await Promise.all(page.items.map((m) => api.getMemory(m.id))) };
    },
    [pages.query],
    4000,
  );
  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title">Memories</h1>
      <CreateMemory api={api} onCreated={memories.reload} />
      <RestoreMemory api={api} onRestored={memories.reload} />
      <ErrorLine error={memories.error} />
      {memories.value && <MemoryTable api={api} memories={memories.value.details} onChange={memories.reload} />}
      <Pager page={memories.value} pages={pages} label="memory" />
    </section>
  );
}

function MemoryTable({ api, memories, onChange }: { api: Api; memories: MemoryDetails[]; onChange: () => void }) {
  if (!memories.length) return <p>No memories yet: create one above, then add files to it on the Files screen.</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Step</th>
            <th>Files</th>
            <th>Chunks</th>
            <th>Entities</th>
            <th>Relations</th>
            <th>Facts</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {memories.map((m) => (
            <MemoryRow key={m.id} api={api} memory={m} onChange={onChange} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MemoryRow({ api, memory: m, onChange }: { api: Api; memory: MemoryDetails; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => void (confirming && cancel.current?.focus()), [confirming]); // keyboard users land on the safe choice
  const remove = async () => {
    try {
      await api.deleteMemory(m.id);
      onChange();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <>
      <tr data-memory={m.name}>
        <td title={m.id}>{m.name}</td>
        <td>{m.memoryType}</td>
        <td>
          <StateBadge state={m.step} />
        </td>
        <td>{num(m.fileCount)}</td>
        <td>{num(m.chunkCount)}</td>
        <td>{num(m.entityCount)}</td>
        <td>{num(m.relationCount)}</td>
        <td>{num(m.factCount)}</td>
        <td class="actions">
          <a href={href('ask', { memory: m.id })}>Ask</a>
          {m.memoryType === 'graph' && <a href={href('graph', { memory: m.id })}>Graph</a>}
          {m.step === 'ready' && <ExportButton api={api} memoryId={m.id} name={m.name} />}
          {confirming ? (
            <span role="group" aria-label={`confirm deleting ${m.name}`}>
              Delete “{m.name}”?{' '}
              <button type="button" class="danger" onClick={remove}>
                Yes, delete
              </button>
              <button type="button" ref={cancel} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </td>
      </tr>
      {(m.failedFileCount > 0 || m.lastError || error) && (
        <tr class="detail">
          <td colSpan={9}>
            <ErrorLine error={error} />
            {m.lastError && <p class="error">Last error: {m.lastError}</p>}
            {m.failedFileCount > 0 && (
              <details open>
                <summary>{m.failedFileCount} failed file(s)</summary>
                <ul class="failed">
                  {m.failedFiles.map((f) => (
                    <li>
                      <code>{f.fileID}</code>: <span class="error">{f.error}</span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </td>
        </tr>
      )}
    </>
  );
}

function CreateMemory({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [type, setType] = useState<'graph' | 'vector'>('graph');
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const values = new FormData(form);
    const text = (name: string) => String(values.get(name) ?? '').trim() || undefined;
    const int = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
    try {
      await api.createMemory({
        name: String(values.get('name') ?? ''),
        description: text('description'),
        memoryType: type,
        ...(type === 'graph' ? { ontology: text('ontology') } : { chunkSize: int('chunkSize'), chunkOverlap: int('chunkOverlap') }),
        factExtraction: values.get('factExtraction') === 'on',
      });
      setError(undefined);
      form.reset();
      onCreated();
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <form class="card grid" onSubmit={submit} aria-label="create a memory">
      <Field label="Name" name="name" error={error}>
        <input aria-label="Name" name="name" />
      </Field>
      <Field label="Description" name="description" error={error}>
        <input aria-label="Description" name="description" />
      </Field>
      <Field label="Type" name="memoryType" error={error}>
        <select
          aria-label="Type"
          name="memoryType"
          value={type}
          onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value as 'graph' | 'vector')}
        >
          <option value="graph">graph</option>
          <option value="vector">vector</option>
        </select>
      </Field>
      {type === 'graph' ? (
        <Field label="Ontology" name="ontology" error={error}>
          <select aria-label="Ontology" name="ontology">
            {ONTOLOGIES.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </Field>
      ) : (
        <>
          <Field label="Chunk size (characters)" name="chunkSize" error={error}>
            <input aria-label="Chunk size (characters)" name="chunkSize" inputMode="numeric" placeholder="default" />
          </Field>
          <Field label="Chunk overlap (percent, 1-50)" name="chunkOverlap" error={error}>
            <input aria-label="Chunk overlap (percent, 1-50)" name="chunkOverlap" inputMode="numeric" placeholder="default" />
          </Field>
        </>
      )}
      <label class="check">
        <input type="checkbox" name="factExtraction" defaultChecked /> Fact extraction
      </label>
      <button type="submit">Create memory</button>
      <FormError error={error} fields={FIELDS} />
    </form>
  );
}
