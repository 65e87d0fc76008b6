/** Small readers for attributes coming back from the table. */
export function nullableString(value: unknown): string | null {
  return value === undefined || value === null ? null : String(value);
}
