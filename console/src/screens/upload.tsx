/** Drag and drop (or choose) files: each is uploaded with a progress bar, then created as a kmem file. */
import { useState } from 'preact/hooks';
import type { Api } from '../api';
import { Progress, messageOf } from '../ui';

interface Upload {
  name: string;
  progress: number;
  error?: string;
  done?: boolean;
}

/** The file type kmem is told, from the browser's media type and the name. */
function fileTypeOf(file: File): string {
  const type = file.type;
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (/\.(txt|md|markdown|csv|json|log)$/i.test(file.name) || type.startsWith('text/plain')) return 'text';
  if (/\.(pdf|docx?|odt|rtf|pptx?|xlsx?|html?|epub)$/i.test(file.name)) return 'document';
  return 'other';
}

export function UploadZone({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const update = (name: string, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.name === name ? { ...u, ...change } : u)));
  const send = async (file: File) => {
    try {
      const key = await api.upload(file, (progress) => update(file.name, { progress }));
      await api.createFile({ name: file.name, key, fileType: fileTypeOf(file) });
      update(file.name, { progress: 1, done: true });
      onCreated();
    } catch (e) {
      update(file.name, { error: messageOf(e) });
    }
  };
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    setUploads((all) => [...files.map((f) => ({ name: f.name, progress: 0 })), ...all]);
    files.forEach((f) => void send(f));
  };
  return (
    <div
      class={`card drop${over ? ' over' : ''}`}
      data-testid="drop-zone"
      onDragOver={(e) => (e.preventDefault(), setOver(true))}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => (e.preventDefault(), setOver(false), take(e.dataTransfer?.files))}
    >
      <h2>Upload</h2>
      <p>Drop files here, or</p>
      <label class="button">
        Choose files
        <input type="file" multiple class="visually-hidden" onChange={(e) => take((e.currentTarget as HTMLInputElement).files)} />
      </label>
      <ul class="uploads">
        {uploads.map((u) => (
          <li>
            {u.name} <Progress value={u.progress} label={`uploading ${u.name}`} />
            {u.done && ' created'}
            {u.error && (
              <span class="error" role="alert">
                {' '}
                {u.error}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
