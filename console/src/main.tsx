/** The console's shell: sign-in, the account's budget, and one screen per part of the API. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Api, createApi } from './api';
import { AskScreen } from './screens/ask';
import { ConversationsScreen } from './screens/conversations';
import { FilesScreen } from './screens/files';
import { MemoriesScreen } from './screens/memories';
import { SignIn } from './screens/sign-in';
import { readRoute, SCREENS, type Screen } from './route';
import { clearKey, readKey } from './session';
import { num, useLoad } from './ui';
import './style.css';

function App() {
  const [key, setKey] = useState(readKey());
  if (!key) return <SignIn onSignedIn={setKey} />;
  return <Console api={createApi(key)} onSignOut={() => (clearKey(), setKey(undefined))} />;
}

function Console({ api, onSignOut }: { api: Api; onSignOut: () => void }) {
  const [route, setRoute] = useState(readRoute());
  useEffect(() => {
    const onHash = () => setRoute(readRoute());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const account = useLoad(() => api.account(), [route.screen], 15_000);
  return (
    <>
      <header>
        <strong class="brand">kmem</strong>
        <nav aria-label="screens">
          {SCREENS.map((s) => (
            <a href={`#/${s}`} aria-current={route.screen === s ? 'page' : undefined}>
              {s[0]?.toUpperCase() + s.slice(1)}
            </a>
          ))}
        </nav>
        <span class="budget" title="token budget" data-testid="budget">
          {account.value ? (
            <>
              {account.value.name}: {num(account.value.tokensUsed)} used / {num(account.value.tokensRemaining)} remaining tokens
            </>
          ) : (
            account.error
          )}
        </span>
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main>
        <Body api={api} screen={route.screen} params={route.params} onBudgetChange={account.reload} />
      </main>
    </>
  );
}

function Body(props: { api: Api; screen: Screen; params: URLSearchParams; onBudgetChange: () => void }) {
  const { api, params } = props;
  switch (props.screen) {
    case 'files':
      return <FilesScreen api={api} fileID={params.get('file') ?? ''} onBudgetChange={props.onBudgetChange} />;
    case 'ask':
      return <AskScreen api={api} memoryID={params.get('memory') ?? ''} />;
    case 'graph':
      return <LazyGraph api={api} memoryID={params.get('memory') ?? ''} />;
    case 'conversations':
      return <ConversationsScreen api={api} sessionID={params.get('session') ?? ''} />;
    default:
      return <MemoriesScreen api={api} />;
  }
}

type GraphModule = typeof import('./screens/graph');

/** The graph screen (sigma.js, graphology) loads only when opened, so the first screen stays small. */
function LazyGraph(props: { api: Api; memoryID: string }) {
  const [module, setModule] = useState<GraphModule | undefined>(undefined);
  useEffect(() => {
    import('./screens/graph').then(setModule, () => undefined);
  }, []);
  return module ? <module.GraphScreen {...props} /> : <p>Loading the graph view…</p>;
}

render(<App />, document.getElementById('app') as HTMLElement);
