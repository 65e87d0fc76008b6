/** Add the selected files to a memory and start its ingestion, showing the budget check's answer. */
import { useState } from 'preact/hooks';
import type { Api, StartedIngestion } from '../api';
import { ErrorLine, messageOf, num, toApiError, useLoad } from '../ui';

export function IngestPanel({ api, fileIDs, onDone }: { api: Api; fileIDs: string[]; onDone: () => void }) {
  const memories = useLoad(() => api.allMemories(), []);
  const [memoryID, setMemoryID] = useState('');
  const [answer, setAnswer] = useState<StartedIngestion | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const chosen = memoryID || memories.value?.[0]?.id || '';
  const run = async (event: Event) => {
    event.preventDefault();
    setAnswer(undefined);
    setError(undefined);
    try {
      if (fileIDs.length) await api.addFiles(chosen, fileIDs);
      setAnswer(await api.startIngestion(chosen));
      onDone();
    } catch (e) {
      setError(refusal(e));
    }
  };
  return (
    <form class="card ingest" onSubmit={run} aria-label="add to a memory and ingest">
      <label class="field">
        <span>Memory</span>
        <select
          aria-label="Memory"
          onFocus={memories.reload}
          value={chosen}
          onChange={(e) => setMemoryID((e.currentTarget as HTMLSelectElement).value)}
        >
          {memories.value?.map((m) => (
            <option value={m.id}>
              {m.name} ({m.memoryType})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!chosen}>
        {fileIDs.length ? `Add ${fileIDs.length} file(s) and start ingestion` : 'Start ingestion'}
      </button>
      <ErrorLine error={memories.error ?? error} />
      {answer && (
        <p class="ok" role="status" data-testid="ingestion-started">
          {answer.message}: {answer.sampleCount} file(s), {num(answer.tokenMetrics.tokensForIngestion)} tokens;{' '}
          {num(answer.tokenMetrics.tokensRemaining)} of {num(answer.tokenMetrics.totalTokenLimit)} remain.
        </p>
      )}
    </form>
  );
}

/** The API's words, plus the numbers of a refused budget check. */
function refusal(e: unknown): string {
  const error = toApiError(e);
  const d = error.data as { tokensNeeded?: number; tokensAvailable?: number } | undefined;
  return d?.tokensNeeded !== undefined
    ? `${error.message} (needs ${num(d.tokensNeeded)} tokens, ${num(d.tokensAvailable)} available)`
    : messageOf(error);
}
