import type { Redis } from 'ioredis';
import { MESSAGES } from '../../shared/messages';
import { tooManyRequests } from '../errors';

/** One counted hit: whether it stayed within the limit, and how long until the window ends. */
export interface LimitResult {
  allowed: boolean;
  retryAfterMs: number;
}

/**
 * Fixed-window counters. In one process they live in memory; with REDIS_URL they live in Redis so every
 * server process counts the same attempts (a brute force spread over instances is still stopped).
 */
export interface RateLimiter {
  /** Counts one hit on `key`; true while the count stays within `limit` for the window. */
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
  /** Like `hit`, and says when the window ends (for Retry-After). */
  consume(key: string, limit: number, windowMs: number): Promise<LimitResult>;
  /** Forgets a key (e.g. the per-email failure counter after a successful login). */
  reset(key: string): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const consume = async (key: string, limit: number, windowMs: number): Promise<LimitResult> => {
    const t = now();
    if (windows.size > 50_000) for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    return { allowed: w.count <= limit, retryAfterMs: w.resetAt - t };
  };
  return {
    consume,
    hit: async (key, limit, windowMs) => (await consume(key, limit, windowMs)).allowed,
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function redisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  const consume = async (key: string, limit: number, windowMs: number): Promise<LimitResult> => {
    const k = prefix + key;
    // INCR, PEXPIRE NX and PTTL in one round trip: the window starts at the first hit.
    const results = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[2]?.[1] ?? -1);
    return { allowed: count <= limit, retryAfterMs: ttl > 0 ? ttl : windowMs };
  };
  return {
    consume,
    hit: async (key, limit, windowMs) => (await consume(key, limit, windowMs)).allowed,
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/** Counts a hit and throws the 429 (with Retry-After) once `key` is over its limit. */
export async function enforceLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const { allowed, retryAfterMs } = await limiter.consume(key, limit, windowMs);
  if (!allowed) throw tooManyRequests(MESSAGES.tooManyRequests, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}
