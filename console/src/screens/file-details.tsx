/** One file: its state and reason, a sitemap's or crawl's hidden pages with their progress, its extracted text. */
import type { Api } from '../api';
import { ErrorLine, Progress, StateBadge, num, useLoad } from '../ui';
import { FileMetadata } from './file-metadata';

export function FileDetailsPanel({ api, fileID, onClose }: { api: Api; fileID: string; onClose: () => void }) {
  const file = useLoad(() => api.getFile(fileID), [fileID], 2000);
  const f = file.value;
  return (
    <aside class="card panel" aria-label="file details">
      <button type="button" class="close" onClick={onClose} aria-label="close details">
        ×
      </button>
      <ErrorLine error={file.error} />
      {f && (
        <>
          <h2>{f.name}</h2>
          <p>
            <StateBadge state={f.state} /> {f.fileType} · {num(f.length)} characters · {num(f.tokens)} tokens · source {f.source}
            {f.externalURI && (
              <>
                {' '}
                ·{' '}
                <a href={f.externalURI} rel="noreferrer noopener" target="_blank">
                  {f.externalURI}
                </a>
              </>
            )}
          </p>
          {f.error && (
            <p class="error" data-testid="file-error">
              {f.error}
            </p>
          )}
          {f.hiddenFilesTotal > 0 && (
            <div class="hidden-pages">
              <h3>Pages</h3>
              <p>
                {f.hiddenFilesProcessed} of {f.hiddenFilesTotal} processed, {f.hiddenFilesCreated} created, {f.hiddenFilesIngested} ingested
              </p>
              <Progress value={f.hiddenFilesProcessed / f.hiddenFilesTotal} label="pages processed" />
            </div>
          )}
          <FileMetadata api={api} fileID={f.id} metadata={f.metadata} onSaved={file.reload} />
          <h3>Extracted text</h3>
          <pre class="content" tabIndex={0}>
            {f.content ?? '(none yet)'}
          </pre>
        </>
      )}
    </aside>
  );
}
