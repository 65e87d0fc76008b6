/** Sign-in: the key is checked against the API (GET /account) before it is kept for this tab. */
import { useState } from 'preact/hooks';
import { createApi } from '../api';
import { saveKey } from '../session';
import { ErrorLine, messageOf } from '../ui';

export function SignIn({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = String(new FormData(event.currentTarget as HTMLFormElement).get('apiKey') ?? '').trim();
    setBusy(true);
    try {
      await createApi(key).account();
      saveKey(key);
      onSignedIn(key);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>kmem console</h1>
      <form onSubmit={submit}>
        <label class="field">
          <span>API key</span>
          <input aria-label="API key" name="apiKey" type="password" autoComplete="off" required autoFocus />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorLine error={error} />
        <p class="hint">The key stays in this tab only (session storage) and is sent as X-API-Key to this origin.</p>
      </form>
    </main>
  );
}
