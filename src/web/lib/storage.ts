/** Browser storage keys named by the spec (section 3). */
export const AUTH_TOKEN_KEY = 'authToken';
export const AUTH_BYPASS_KEY = 'authBypass';

/** localStorage can throw (private mode, disabled storage); the app then behaves as if it were empty. */
const safe = <T>(fn: () => T, fallback: T): T => {
  try {
    return fn();
  } catch {
    return fallback;
  }
};

export const readStorage = (key: string): string | null => safe(() => window.localStorage.getItem(key), null);
export const writeStorage = (key: string, value: string): void =>
  safe(() => window.localStorage.setItem(key, value), undefined);
export const removeStorage = (key: string): void =>
  safe(() => window.localStorage.removeItem(key), undefined);
