/** Hash routes (`#/ask?memory=ID`): the screen and its parameters, so a reload keeps the place. */
export const SCREENS = ['memories', 'files', 'ask', 'graph', 'conversations'] as const;
export type Screen = (typeof SCREENS)[number];

export function readRoute(): { screen: Screen; params: URLSearchParams } {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const screen = (SCREENS as readonly string[]).includes(path) ? (path as Screen) : 'memories';
  return { screen, params: new URLSearchParams(query) };
}

export const href = (screen: Screen, params: Record<string, string> = {}): string => {
  const query = new URLSearchParams(params).toString();
  return `#/${screen}${query ? `?${query}` : ''}`;
};
