/** Small shared pieces: loading a value, showing the API's words, form fields, numbers. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Loads a value, again whenever `deps` change or `reload` is called; `every` ms polls it. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], every?: number) {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const latest = useRef(load);
  latest.current = load;
  const reload = useCallback(() => {
    latest.current().then(
      (v) => {
        setValue(v);
        setError(undefined);
      },
      (e: unknown) => setError(messageOf(e)),
    );
  }, []);
  useEffect(() => {
    reload();
    if (!every) return undefined;
    const timer = setInterval(reload, every);
    return () => clearInterval(timer);
  }, deps);
  return { value, error, reload };
}

export function ErrorLine({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A labelled control with the API's complaint about this field under it. */
export function Field(props: { label: string; name: string; error?: ApiError | undefined; children: ComponentChildren }) {
  const own = props.error?.field === props.name ? props.error.message : undefined;
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {own && (
        <span class="error" role="alert" data-field-error={props.name}>
          {own}
        </span>
      )}
    </label>
  );
}

/** The form-level error: shown when the API's message names no field of this form. */
export function FormError({ error, fields }: { error: ApiError | undefined; fields: string[] }) {
  if (!error || (error.field && fields.includes(error.field))) return null;
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

export function Progress({ value, label }: { value: number; label: string }) {
  return <progress max={1} value={value} aria-label={label} />;
}

export const num = (n: number | null | undefined): string => (n == null ? '–' : n.toLocaleString('en'));

export function StateBadge({ state }: { state: string }) {
  return <span class={`badge badge-${state}`}>{state}</span>;
}

export const toApiError = (e: unknown): ApiError => (e instanceof ApiError ? e : new ApiError(messageOf(e), 0));

/** Page tokens of a list: the current token and the way back, for Previous / Next buttons. */
export function usePages() {
  const [token, setToken] = useState<{ nextToken?: string; previousToken?: string }>({});
  return {
    query: token,
    next: (nextToken: string) => setToken({ nextToken }),
    previous: (previousToken: string) => setToken({ previousToken }),
  };
}

export function Pager(props: {
  page: { nextToken: string | null; previousToken: string | null } | undefined;
  pages: ReturnType<typeof usePages>;
  label: string;
}) {
  const { page, pages } = props;
  if (!page?.nextToken && !page?.previousToken) return null;
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={!page.previousToken} onClick={() => page.previousToken && pages.previous(page.previousToken)}>
        Previous page
      </button>
      <button type="button" disabled={!page.nextToken} onClick={() => page.nextToken && pages.next(page.nextToken)}>
        Next page
      </button>
    </nav>
  );
}

/** The After / Before inputs of a time window (Ask, message search). */
export function TimeWindowFields() {
  return (
    <>
      <label class="field">
        <span>After</span>
        <input aria-label="After" name="after" type="datetime-local" />
      </label>
      <label class="field">
        <span>Before</span>
        <input aria-label="Before" name="before" type="datetime-local" />
      </label>
    </>
  );
}

/** A search filter as JSON (the API's `filter`: it names an unknown or malformed condition). */
export function FilterField() {
  return (
    <label class="field wide">
      <span>Filter (JSON)</span>
      <input
        aria-label="Filter"
        name="filter"
        placeholder='{"fileTypes":["document"],"metadata":{"lang":["de"]}}'
        spellcheck={false}
        autocomplete="off"
      />
    </label>
  );
}

/** The filter a form's FilterField holds, as the API takes it (unset when empty). */
export function filterOf(form: FormData): { filter: string | undefined } {
  const value = String(form.get('filter') ?? '').trim();
  return { filter: value || undefined };
}

/** The time window a form's TimeWindowFields hold, as the API takes it (ISO 8601; unset when empty). */
export function timeWindowOf(form: FormData): { after: string | undefined; before: string | undefined } {
  const iso = (name: string) => {
    const value = String(form.get(name) ?? '').trim();
    return value ? new Date(value).toISOString() : undefined;
  };
  return { after: iso('after'), before: iso('before') };
}
