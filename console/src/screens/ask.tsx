/** The retrieval playground: a query over a memory, its passages with scores, facts, and sources linked to their file or session. */
import { useState } from 'preact/hooks';
import type { Api, Retrieval } from '../api';
import { href } from '../route';
import { ErrorLine, FilterField, filterOf, messageOf, TimeWindowFields, timeWindowOf, useLoad } from '../ui';

/** A `datetime-local` value as ISO 8601 (the input is in the browser's time zone). */

export function AskScreen({ api, memoryID }: { api: Api; memoryID: string }) {
  const memories = useLoad(() => api.allMemories(), []);
  const [result, setResult] = useState<Retrieval | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const v = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      setResult(
        await api.retrieve({
          memoryID: String(v.get('memoryID') ?? ''),
          query: String(v.get('query') ?? ''),
          topK: String(v.get('topK') ?? ''),
          facts: v.get('facts') === 'on',
          assisted: v.get('assisted') === 'on',
          ...timeWindowOf(v),
          ...filterOf(v),
        }),
      );
      setError(undefined);
    } catch (e) {
      setResult(undefined);
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="ask-title">
      <h1 id="ask-title">Ask</h1>
      <form class="card grid" onSubmit={submit} aria-label="query a memory">
        <label class="field wide">
          <span>Query</span>
          <input aria-label="Query" name="query" required />
        </label>
        <label class="field">
          <span>Memory</span>
          <select aria-label="Memory" onFocus={memories.reload} name="memoryID" defaultValue={memoryID}>
            {/* the memory the address names counts before the list has arrived: asking at once asks it */}
            {!memories.value && memoryID && <option value={memoryID}>{memoryID}</option>}
            {memories.value?.map((m) => (
              <option value={m.id} selected={m.id === memoryID}>
                {m.name} ({m.memoryType})
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Top K</span>
          <input aria-label="Top K" name="topK" type="number" min={1} max={100} defaultValue="5" />
        </label>
        <TimeWindowFields />
        <FilterField />
        <label class="check">
          <input type="checkbox" name="facts" defaultChecked /> Facts
        </label>
        <label class="check">
          <input type="checkbox" name="assisted" /> Assisted
        </label>
        <button type="submit" disabled={busy}>
          Ask
        </button>
      </form>
      <ErrorLine error={error ?? memories.error} />
      {result && <Results result={result} />}
    </section>
  );
}

function Results({ result }: { result: Retrieval }) {
  return (
    <div class="results">
      <h2>Passages</h2>
      {!result.payload.length && <p>Nothing matched.</p>}
      <ol class="passages">
        {result.payload.map((p) => (
          <li>
            <span class="score">{p.score.toFixed(3)}</span> <span class="passage">{p.content}</span>
          </li>
        ))}
      </ol>
      {result.facts.length > 0 && (
        <>
          <h2>Facts</h2>
          <ul>
            {result.facts.map((f) => (
              <li>{f.content}</li>
            ))}
          </ul>
        </>
      )}
      <h2>Sources</h2>
      <ul class="sources">
        {result.sources.map((s) => (
          <li>
            <a href={s.url.startsWith('/sessions/') ? href('conversations', { session: s.id }) : href('files', { file: s.id })}>{s.name}</a>{' '}
            <span class="score">{s.score.toFixed(3)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
