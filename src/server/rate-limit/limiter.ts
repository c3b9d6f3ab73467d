import type { Redis } from 'ioredis';

/**
 * Fixed-window counters. In one process they live in memory; with REDIS_URL they live in Redis so every
 * server process counts the same attempts (a brute force spread over instances is still stopped).
 */
export interface RateLimiter {
  /** Counts one hit on `key`; true while the count stays within `limit` for the window. */
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
  /** Forgets a key (e.g. the per-email failure counter after a successful login). */
  reset(key: string): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      if (windows.size > 50_000) for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      const w = windows.get(key);
      if (!w || w.resetAt <= t) {
        windows.set(key, { count: 1, resetAt: t + windowMs });
        return 1 <= limit;
      }
      w.count += 1;
      return w.count <= limit;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function redisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  return {
    async hit(key, limit, windowMs) {
      const k = prefix + key;
      // INCR and PEXPIRE NX in one round trip: the window starts at the first hit.
      const results = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      return count <= limit;
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
