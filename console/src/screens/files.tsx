/** Files: drop to upload (with progress), web addresses, live states, extracted text, add to a memory and ingest. */
import { useState } from 'preact/hooks';
import type { Api, KmemFile } from '../api';
import { ErrorLine, Pager, StateBadge, messageOf, num, useLoad, usePages } from '../ui';
import { FileDetailsPanel } from './file-details';
import { IngestPanel } from './ingest';
import { UploadZone } from './upload';

export function FilesScreen({ api, fileID, onBudgetChange }: { api: Api; fileID: string; onBudgetChange: () => void }) {
  const pages = usePages();
  const files = useLoad(() => api.listFiles({ limit: 50, ...pages.query }), [pages.query], 2000);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<string | undefined>(fileID || undefined);
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };
  return (
    <section aria-labelledby="files-title">
      <h1 id="files-title">Files</h1>
      <div class="two">
        <UploadZone api={api} onCreated={files.reload} />
        <WebAddressForm api={api} onCreated={files.reload} />
      </div>
      <IngestPanel api={api} fileIDs={[...selected]} onDone={onBudgetChange} />
      {open && <FileDetailsPanel api={api} fileID={open} onClose={() => setOpen(undefined)} />}
      <ErrorLine error={files.error} />
      {files.value && (
        <FileTable files={files.value.items} selected={selected} onToggle={toggle} onOpen={setOpen} api={api} onChange={files.reload} />
      )}
      <Pager page={files.value} pages={pages} label="file" />
    </section>
  );
}

interface TableProps {
  api: Api;
  files: KmemFile[];
  selected: Set<string>;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
  onChange: () => void;
}

function FileTable({ files, selected, onToggle, onOpen, api, onChange }: TableProps) {
  const [error, setError] = useState<string | undefined>(undefined);
  if (!files.length) return <p>No files yet: drop one above or add a web address.</p>;
  const remove = (id: string) => api.deleteFile(id).then(onChange, (e: unknown) => setError(messageOf(e)));
  return (
    <div class="scroll">
      <ErrorLine error={error} />
      <table>
        <thead>
          <tr>
            <th>Add</th>
            <th>Name</th>
            <th>Type</th>
            <th>State</th>
            <th>Size</th>
            <th>Tokens</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr data-file={f.name}>
              <td>
                <input type="checkbox" aria-label={`select ${f.name}`} checked={selected.has(f.id)} onChange={() => onToggle(f.id)} />
              </td>
              <td title={f.id}>{f.name}</td>
              <td>{f.fileType}</td>
              <td>
                <StateBadge state={f.state} />
                {f.error && <div class="error reason">{f.error}</div>}
              </td>
              <td>{num(f.size)}</td>
              <td>{num(f.tokens)}</td>
              <td class="actions">
                <button type="button" onClick={() => onOpen(f.id)}>
                  View
                </button>
                <button type="button" onClick={() => remove(f.id)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const WEB_KINDS = [
  ['website', 'a web page'],
  ['sitemap', 'a sitemap (each page becomes a file)'],
  ['website_bulk', 'a crawl from this address'],
] as const;

/** A file name from a web address (names hold no slashes): host and path with `_` for each `/`. */
function nameOf(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.host}${url.pathname}`
      .replace(/[/\\]+/g, '_')
      .replace(/_$/, '')
      .slice(0, 255);
  } catch {
    return uri;
  }
}

function WebAddressForm({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const values = new FormData(form);
    const uri = String(values.get('external_uri') ?? '').trim();
    try {
      await api.createFile({
        name: String(values.get('name') || nameOf(uri)),
        fileType: String(values.get('fileType')),
        external_uri: uri,
      });
      setError(undefined);
      form.reset();
      onCreated();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-label="add a web address">
      <h2>Web address</h2>
      <label class="field">
        <span>Address</span>
        <input aria-label="Address" name="external_uri" type="url" placeholder="https://…" required />
      </label>
      <label class="field">
        <span>Name (optional)</span>
        <input aria-label="Name (optional)" name="name" />
      </label>
      <label class="field">
        <span>Kind</span>
        <select aria-label="Kind" name="fileType">
          {WEB_KINDS.map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </label>
      <button type="submit">Add address</button>
      <ErrorLine error={error} />
    </form>
  );
}
