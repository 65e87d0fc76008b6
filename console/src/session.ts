/** The API key lives in this tab's sessionStorage only: never in a URL, gone when the tab closes. */
const KEY = 'kmem.apiKey';

export const readKey = (): string | undefined => sessionStorage.getItem(KEY) ?? undefined;
export const saveKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const clearKey = (): void => sessionStorage.removeItem(KEY);
