import { ApiError } from './api-client';

/**
 * Worth another try: the connection dropped or the server failed (5xx, 408, 429). A refusal (any other
 * 4xx) would be refused again, and an abort is the user's.
 */
export const isTransient = (error: unknown): boolean => {
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  if (error instanceof ApiError) return error.status >= 500 || error.status === 408 || error.status === 429;
  return true;
};

/**
 * Runs `attempt` until it succeeds, waiting `delaysMs[i]` before try i + 2 while the error is transient;
 * the last error is thrown. Only for requests the server makes idempotent (the same key, one effect).
 */
export const withRetries = async <T>(
  attempt: () => Promise<T>,
  delaysMs: readonly number[],
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> => {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= delaysMs.length || !isTransient(error)) throw error;
      await wait(delaysMs[i]!);
    }
  }
};
