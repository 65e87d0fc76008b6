/**
 * What error messages say, one wording for file extraction, web fetching and AWS calls: sizes and
 * durations as people read them (`the HTML page is 6 MB, more than the 5 MB ...`, `timed out after 15 s`),
 * and long texts (an address, a library's error) cut to a line of at most 200 characters.
 */

/** `text` cut to `max` characters, `...` included, when longer. */
export function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/** A short, single-line description of an unknown thrown value, for reasons and warnings. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  return shorten(text.split('\n')[0] ?? '');
}

/** `10 MB`, `1.5 MB`, `512 KB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb) return `${Number((bytes / mb).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/** `15 s`, `1.5 s`, `200 ms`. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}
