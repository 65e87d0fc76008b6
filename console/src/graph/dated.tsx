/** Facts with validity, as the entity panel and the profile view list them: latest first, what no longer holds marked. */

interface Dated {
  content: string;
  validFrom: string | null;
  validTo: string | null;
}

/** The day of an ISO 8601 time ('' when unknown). */
function day(time: string | null): string {
  return time ? time.slice(0, 10) : '';
}

/** "since 2024-03-01", or "2024-03-01 – 2024-06-01, superseded" once a later source replaced it. */
function validityOf(entry: Dated): string {
  const from = day(entry.validFrom);
  if (entry.validTo === null) return from ? `since ${from}` : 'holds';
  return `${from || '?'} – ${day(entry.validTo)}, superseded`;
}

export function DatedList({ entries, label }: { entries: Dated[]; label: string }) {
  return (
    <ul class="dated" aria-label={label}>
      {entries.map((entry) => (
        <li class={entry.validTo === null ? 'current' : 'superseded'} data-testid="dated-fact">
          {entry.validTo === null ? entry.content : <s class="muted">{entry.content}</s>} <small class="muted">({validityOf(entry)})</small>
        </li>
      ))}
    </ul>
  );
}
