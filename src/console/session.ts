/**
 * The token of the signed-in person: in this tab's sessionStorage only (never localStorage, never a
 * cookie), so it survives a reload, is gone with the tab, and no other site's request carries it.
 */
const KEY = 'lpa-console-token';

export function savedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function keepToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
