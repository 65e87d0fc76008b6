/** Listings read whole: a picker offers every item, not the first page of 100. */

export interface TokenPage<T> {
  items: T[];
  nextToken: string | null;
}

/** Every item of a listing, page after page through `nextToken`, until a page has none (or repeats one). */
export async function everyPage<T>(fetchPage: (nextToken: string | undefined) => Promise<TokenPage<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  do {
    const page = await fetchPage(token);
    items.push(...page.items);
    token = page.nextToken ?? undefined;
    if (token !== undefined && seen.has(token)) break; // a listing that loops ends here rather than never
    if (token !== undefined) seen.add(token);
  } while (token !== undefined);
  return items;
}
