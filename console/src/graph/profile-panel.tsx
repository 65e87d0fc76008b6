/** A customer user's profile in a graph memory (GET /memories/profile/{id}): facts and preferences with validity. */
import { useState } from 'preact/hooks';
import type { Api } from '../api';
import { ErrorLine, useLoad } from '../ui';
import { DatedList } from './dated';

export function ProfilePanel({ api, memoryID }: { api: Api; memoryID: string }) {
  const [asked, setAsked] = useState<{ customerUserID: string; asOf: string } | undefined>(undefined);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const customerUserID = String(form.get('customerUserID') ?? '').trim();
    if (customerUserID) setAsked({ customerUserID, asOf: String(form.get('asOf') ?? '').trim() });
  };
  return (
    <section aria-label="user profile">
      <form onSubmit={submit} aria-label="find a profile">
        <label class="field">
          <span>Customer user</span>
          <input aria-label="Customer user" name="customerUserID" />
        </label>
        <label class="field">
          <span>As of (optional)</span>
          <input aria-label="As of" name="asOf" placeholder="2024-06-01T00:00:00Z" />
        </label>
        <button type="submit">Show profile</button>
      </form>
      {asked && <Profile key={`${asked.customerUserID}\u0000${asked.asOf}`} api={api} memoryID={memoryID} {...asked} />}
    </section>
  );
}

function Profile({ api, memoryID, customerUserID, asOf }: { api: Api; memoryID: string; customerUserID: string; asOf: string }) {
  const profile = useLoad(() => api.profile(memoryID, customerUserID, asOf || undefined), [memoryID, customerUserID, asOf]);
  const p = profile.value;
  return (
    <div data-testid="profile">
      <ErrorLine error={profile.error} />
      {p && (
        <>
          <h3>Facts of {p.customerUserID}</h3>
          {!p.facts.length && <p>None.</p>}
          <DatedList entries={p.facts} label="profile facts" />
          <h3>Preferences</h3>
          {!p.preferences.length && <p>None.</p>}
          <DatedList entries={p.preferences} label="profile preferences" />
        </>
      )}
    </div>
  );
}
