/**
 * Sizes and durations as people read them in error messages (`the HTML page is 6 MB, more than the 5 MB
 * ...`, `timed out after 15 s`), one wording for file extraction and web fetching.
 */

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
