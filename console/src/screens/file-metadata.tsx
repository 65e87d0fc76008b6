/** A file's metadata in its details panel: shown as `key = value` lines, edited and saved in one replace (POST /files/metadata/{id}). */
import { useState } from 'preact/hooks';
import type { Api, MetadataEntry } from '../api';
import { ErrorLine, messageOf } from '../ui';

const asText = (entries: readonly MetadataEntry[]): string => entries.map((e) => `${e.key} = ${e.value}`).join('\n');

/** `key = value` lines as entries (blank lines skipped; the API judges keys and values). */
function entriesOf(text: string): MetadataEntry[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? { key: line, value: '' } : { key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
    });
}

export function FileMetadata({
  api,
  fileID,
  metadata,
  onSaved,
}: {
  api: Api;
  fileID: string;
  metadata: MetadataEntry[];
  onSaved: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const save = async (event: Event) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget as HTMLFormElement).get('metadata') ?? '');
    try {
      await api.setFileMetadata(fileID, entriesOf(text));
      setError(undefined);
      setEditing(false);
      onSaved();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div class="file-metadata">
      <h3>Metadata</h3>
      {!editing && (
        <>
          {metadata.length ? (
            <dl data-testid="file-metadata">
              {metadata.map((e) => (
                <>
                  <dt>{e.key}</dt>
                  <dd>{e.value}</dd>
                </>
              ))}
            </dl>
          ) : (
            <p>None.</p>
          )}
          <button type="button" onClick={() => setEditing(true)}>
            Edit metadata
          </button>
        </>
      )}
      {editing && (
        <form onSubmit={save} aria-label="edit metadata">
          <label class="field wide">
            <span>One `key = value` a line</span>
            <textarea aria-label="Metadata" name="metadata" rows={5} defaultValue={asText(metadata)} />
          </label>
          <button type="submit">Save metadata</button>{' '}
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      )}
      <ErrorLine error={error} />
    </div>
  );
}
