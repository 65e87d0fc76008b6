/** Conversations: recent sessions (from the message list), one session's messages, and message search with its filters. */
import { useState } from 'preact/hooks';
import type { Api, Message, SessionSummary } from '../api';
import { href } from '../route';
import { ErrorLine, FilterField, filterOf, messageOf, Pager, TimeWindowFields, timeWindowOf, useLoad, usePages } from '../ui';

const ROLES = ['', 'user', 'assistant', 'system', 'tool', 'function', 'norole'];

export function ConversationsScreen({ api, sessionID }: { api: Api; sessionID: string }) {
  return (
    <section aria-labelledby="conversations-title">
      <h1 id="conversations-title">Conversations</h1>
      <div class="two">
        <Sessions api={api} current={sessionID} />
        {sessionID ? <SessionMessages key={sessionID} api={api} sessionID={sessionID} /> : <p>Choose a session.</p>}
      </div>
      <Search api={api} />
    </section>
  );
}

/** Sessions that have messages, newest first: the message list is the only listing the API has of them. */
function Sessions({ api, current }: { api: Api; current: string }) {
  const sessions = useLoad(async () => {
    const seen = new Map<string, string>();
    let nextToken: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await api.listMessages({ nextToken });
      for (const m of page.items)
        if (!seen.has(m.sessionID) || (seen.get(m.sessionID) ?? '') < m.createdAt) seen.set(m.sessionID, m.createdAt);
      if (!page.nextToken) break;
      nextToken = page.nextToken;
    }
    return [...seen].sort((a, b) => b[1].localeCompare(a[1]));
  }, []);
  return (
    <nav class="card" aria-label="sessions">
      <h2>Sessions</h2>
      <ErrorLine error={sessions.error} />
      <ul class="plain">
        {sessions.value?.map(([id, last]) => (
          <li>
            <a href={href('conversations', { session: id })} aria-current={id === current ? 'true' : undefined}>
              {id}
            </a>{' '}
            <small>{last}</small>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SessionMessages({ api, sessionID }: { api: Api; sessionID: string }) {
  const pages = usePages();
  const loaded = useLoad(async () => {
    const [session, summary, page] = await Promise.all([
      api.getSession(sessionID),
      // the summary is a convenience: the messages show even when it cannot be read, with a line saying so
      api.getSessionSummary(sessionID).then(
        (value) => ({ value, error: undefined }),
        (error: unknown) => ({ value: null, error: `The summary could not be read: ${messageOf(error)}` }),
      ),
      api.listMessages({ sessionID, ...pages.query }),
    ]);
    return { session, summary: summary.value, summaryError: summary.error, messages: page.items, page };
  }, [sessionID, pages.query]);
  const s = loaded.value?.session;
  return (
    <div class="card" aria-label="session messages">
      <h2>Session {sessionID}</h2>
      <ErrorLine error={loaded.error} />
      {s && (
        <p>
          customer {s.customerUserID || '–'} · started {s.createdAt}
          {s.endedAt && ` · ended ${s.endedAt}`}
          {s.deletedAt && ` · deleted ${s.deletedAt}`}
        </p>
      )}
      {loaded.value?.summary && <Summary summary={loaded.value.summary} />}
      <ErrorLine error={loaded.value?.summaryError} />
      {loaded.value && <MessageList messages={loaded.value.messages} />}
      <Pager page={loaded.value?.page} pages={pages} label="message" />
    </div>
  );
}

/** The session's summary and key points, as the worker last brought them up to date. */
function Summary({ summary }: { summary: SessionSummary }) {
  return (
    <section aria-label="session summary">
      <h3>Summary</h3>
      {summary.summary ? <p>{summary.summary}</p> : <p>No summary yet.</p>}
      {summary.keyPoints.length > 0 && (
        <ul>
          {summary.keyPoints.map((point) => (
            <li>{point}</li>
          ))}
        </ul>
      )}
      <small>
        {summary.messageCount} messages · updated {summary.updatedAt}
      </small>
    </section>
  );
}

function MessageList({ messages }: { messages: Message[] }) {
  return (
    <ol class="messages">
      {messages.map((m) => (
        <li class={`role-${m.role}`}>
          <b>{m.role}</b>{' '}
          <small>
            {m.createdAt}
            {m.score !== undefined && ` · score ${m.score.toFixed(3)}`}
          </small>
          {m.score !== undefined && (
            <>
              {' '}
              · <a href={href('conversations', { session: m.sessionID })}>{m.sessionID}</a>
            </>
          )}
          <div>{m.content}</div>
        </li>
      ))}
    </ol>
  );
}

function Search({ api }: { api: Api }) {
  const [found, setFound] = useState<Message[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const v = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(v.get(name) ?? '').trim() || undefined;
    try {
      setFound(
        await api.searchMessages({
          query: text('query'),
          sessionID: text('sessionID'),
          customerUserID: text('customerUserID'),
          role: text('role'),
          ...timeWindowOf(v),
          ...filterOf(v),
          topK: text('topK'),
        }),
      );
      setError(undefined);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div>
      <form class="card grid" onSubmit={submit} aria-label="search messages">
        <h2 class="wide">Search messages</h2>
        <label class="field wide">
          <span>Query</span>
          <input aria-label="Query" name="query" />
        </label>
        <label class="field">
          <span>Session</span>
          <input aria-label="Session" name="sessionID" />
        </label>
        <label class="field">
          <span>Customer user</span>
          <input aria-label="Customer user" name="customerUserID" />
        </label>
        <label class="field">
          <span>Role</span>
          <select aria-label="Role" name="role">
            {ROLES.map((r) => (
              <option value={r}>{r || 'any'}</option>
            ))}
          </select>
        </label>
        <TimeWindowFields />
        <FilterField />
        <label class="field">
          <span>Top K</span>
          <input aria-label="Top K" name="topK" type="number" min={1} max={100} defaultValue="10" />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorLine error={error} />
      {found && (found.length ? <MessageList messages={found} /> : <p>No message matched.</p>)}
    </div>
  );
}
