/** Filling the limits a caller left out (or passed as undefined) from the defaults. */

export function withDefaults<T extends object>(defaults: T, given: Partial<T> | undefined): T {
  const filled = { ...defaults };
  for (const key of Object.keys(filled) as (keyof T)[]) {
    const value = given?.[key];
    if (value !== undefined) filled[key] = value;
  }
  return filled;
}
