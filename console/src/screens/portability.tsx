/** Export a memory into an archive (a download link once written) and restore one from an archive (docs/export-format.md). */
import { useState } from 'preact/hooks';
import type { Api } from '../api';
import { messageOf } from '../ui';

const POLL_MS = 1000;

/** A memory row's Export button: starts the export, waits for it, then offers the archive (its link lasts an hour). */
export function ExportButton({ api, memoryId, name }: { api: Api; memoryId: string; name: string }) {
  const [state, setState] = useState<{ running?: boolean; url?: string; error?: string }>({});
  const start = async () => {
    setState({ running: true });
    try {
      const exportId = await api.exportMemory(memoryId);
      for (;;) {
        const found = await api.getExport(exportId);
        if (found.state === 'completed' && found.url) return setState({ url: found.url });
        if (found.state === 'failed') return setState({ error: found.error ?? 'the export failed' });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (e) {
      setState({ error: messageOf(e) });
    }
  };
  if (state.url)
    return (
      <a href={state.url} download={`${name}.kmem.tar.gz`}>
        Download archive
      </a>
    );
  return (
    <>
      <button type="button" disabled={state.running} onClick={start}>
        {state.running ? 'Exporting…' : 'Export'}
      </button>
      {state.error && <span class="error">{state.error}</span>}
    </>
  );
}

/** Restores an export archive (from this or any kmem) into a new memory of this account. */
export function RestoreMemory({ api, onRestored }: { api: Api; onRestored: () => void }) {
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const values = new FormData(form);
    const archive = values.get('archive');
    if (!(archive instanceof File) || archive.size === 0) return setError('choose an export archive (.kmem.tar.gz)');
    setError(undefined);
    try {
      const key = await api.upload(archive, setProgress);
      const name = String(values.get('name') ?? '').trim();
      await api.restoreMemory({ archiveKey: key, ...(name ? { name } : {}) });
      form.reset();
      onRestored();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setProgress(undefined);
    }
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="restore a memory">
      <label>
        Restore from archive <input type="file" name="archive" accept=".gz,.tgz,application/gzip" />
      </label>
      <label>
        Restored name <input name="name" maxLength={200} placeholder="(the exported memory's)" />
      </label>
      <button type="submit" disabled={progress !== undefined}>
        {progress === undefined ? 'Restore' : `Uploading ${Math.round(progress * 100)}%`}
      </button>
      {error && <p class="error">{error}</p>}
    </form>
  );
}
