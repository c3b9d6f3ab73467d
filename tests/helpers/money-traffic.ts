import { MESSAGES } from '../../src/shared/messages';
import type { HttpsClient } from './https-client';

/** Traffic that moves money, for the failover and rolling-restart steps of the topology test. */

/** How the app and the proxy say "temporarily unavailable, try again". */
export const UNAVAILABLE = { message: MESSAGES.serviceUnavailable, code: 'unavailable' };

export type Operation = { key: string; op: 'buy' | 'spend'; at: number; tries: number };

/**
 * Four workers of one user; each buys a crown, then spends a master download, with a key per operation as
 * the web app sends them, and retries a retryable failure with the same key (as the web app may).
 * Retryable: the proxy's 502/503/504 in the app's "unavailable" format (on a fresh connection), or a
 * kept-alive connection closed without an answer (HAProxy's intended way of saying "not processed,
 * retry" when the instance behind died; browsers and curl retry those by themselves). Anything else
 * stops the worker and is listed in `unexpected`.
 */
export function moneyTraffic(c: HttpsClient, user: { token: string }) {
  const done: Operation[] = [];
  const failures: Array<{ status: number; body: unknown; at: number }> = [];
  const unexpected: string[] = [];
  let running = true;
  const call = (op: 'buy' | 'spend', key: string) =>
    op === 'buy'
      ? c.api('POST', '/api/purchase-crowns', { amount: 1, idempotencyKey: key }, {}, user.token)
      : c.api('POST', '/api/spend-credit', { type: 'mastering', idempotencyKey: key }, {}, user.token);
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      for (const op of ['buy', 'spend'] as const) {
        const key = `topology-${op}-${w}-${i}`;
        for (let tries = 1; ; tries++) {
          const res = await call(op, key).catch((err: Error & { reusedSocket?: boolean }) => ({
            status: 0,
            body: `${err.message}${err.reusedSocket ? ' (kept-alive connection)' : ''}`,
            reused: err.reusedSocket === true,
          }));
          if (res.status === 200) {
            done.push({ key, op, at: Date.now(), tries });
            break;
          }
          const retryable =
            ([502, 503, 504].includes(res.status) &&
              JSON.stringify(res.body) === JSON.stringify(UNAVAILABLE)) ||
            (res.status === 0 && 'reused' in res && res.reused);
          if (!retryable || tries > 50) {
            unexpected.push(`${key} (try ${tries}): ${res.status} ${JSON.stringify(res.body)}`);
            return;
          }
          failures.push({ status: res.status, body: res.body, at: Date.now() });
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }
  };
  const loops = Array.from({ length: 4 }, (_, w) => worker(w));
  return {
    done,
    failures,
    unexpected,
    /** Resolves once `n` operations succeeded (or a worker stopped on something unexpected). */
    async until(n: number) {
      while (done.length < n && unexpected.length === 0) await new Promise((r) => setTimeout(r, 20));
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** "2 × 502, 1 × closed ..." from a list of failed answers (status 0: closed without an answer). */
export const tallyOf = (failures: Array<{ status: number }>) => {
  const n: Record<string, number> = {};
  for (const f of failures) {
    const k = f.status === 0 ? 'kept-alive connection closed without an answer' : String(f.status);
    n[k] = (n[k] ?? 0) + 1;
  }
  return (
    Object.entries(n)
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ') || 'none'
  );
};
