import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createPasswordHasher } from '../security/passwords';
import { memoryMailer, openTestDatabase, testConfig } from '../test/harness';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './limiter';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachableRedis(): Promise<Redis | undefined> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

const redis = await reachableRedis();
const redisSkip = redis ? '' : ` (skipped: Redis not reachable at ${REDIS_URL})`;

function contract(name: string, make: () => RateLimiter) {
  describe.skipIf(name === 'redis' && !redis)(
    `rate limiter contract: ${name}${name === 'redis' ? redisSkip : ''}`,
    () => {
      it('allows the limit, then refuses, per key', async () => {
        const limiter = make();
        const key = `k-${Math.random()}`;
        const results = [];
        for (let i = 0; i < 4; i++) results.push(await limiter.hit(key, 3, 60_000));
        expect(results).toEqual([true, true, true, false]);
        expect(await limiter.hit(`${key}-other`, 3, 60_000)).toBe(true);
      });

      it('starts a new window after the old one ends, and forgets on reset', async () => {
        const limiter = make();
        const key = `w-${Math.random()}`;
        expect(await limiter.hit(key, 1, 150)).toBe(true);
        expect(await limiter.hit(key, 1, 150)).toBe(false);
        await new Promise((r) => setTimeout(r, 300));
        expect(await limiter.hit(key, 1, 150)).toBe(true);
        await limiter.reset(key);
        expect(await limiter.hit(key, 1, 150)).toBe(true);
      });

      it('says when the window ends, for Retry-After', async () => {
        const limiter = make();
        const key = `t-${Math.random()}`;
        const first = await limiter.consume(key, 1, 60_000);
        expect(first.allowed).toBe(true);
        expect(first.retryAfterMs).toBeGreaterThan(55_000);
        expect(first.retryAfterMs).toBeLessThanOrEqual(60_000);
        await new Promise((r) => setTimeout(r, 50));
        const second = await limiter.consume(key, 1, 60_000);
        expect(second.allowed).toBe(false);
        expect(second.retryAfterMs).toBeLessThan(first.retryAfterMs);
        expect(second.retryAfterMs).toBeGreaterThan(55_000);
      });
    },
  );
}

contract('memory', () => memoryRateLimiter());
contract('redis', () => redisRateLimiter(redis!, `test-${process.pid}-${Math.random()}:`));

describe.skipIf(!redis)(`login limit shared by two server instances through Redis${redisSkip}`, () => {
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  const databases: Awaited<ReturnType<typeof openTestDatabase>>[] = [];

  beforeAll(async () => {
    const prefix = `two-apps-${process.pid}-${Date.now()}:`;
    for (let i = 0; i < 2; i++) {
      const database = await openTestDatabase('pglite');
      databases.push(database);
      apps.push(
        await buildApp({
          config: testConfig({ AUTH_RATE_LIMIT: '6' }),
          database,
          mailer: memoryMailer(),
          limiter: redisRateLimiter(redis!, prefix),
          hasher: createPasswordHasher({ N: 1024, r: 8, p: 1 }),
          // One DEVICE_COOKIE_SECRET for both, as the README asks of several instances.
          deviceCookieKey: Buffer.alloc(32, 7),
          logger: false,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const d of databases) await d.close();
    redis?.disconnect();
  });

  it('counts attempts made on either instance', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const app = apps[i % 2]!;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.66.0.1',
        payload: { email: `x${i}@example.test`, password: 'wrong-password' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
  });

  it('lets a known browser in on either instance while guesses from its address are refused on both', async () => {
    const login = async (i: number, password: string, cookie?: string) => {
      const res = await apps[i % 2]!.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.66.3.3',
        payload: { email: 'owner@example.test', password },
        headers: cookie ? { cookie, origin: 'http://app.test' } : {},
      });
      const device = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('device='))
        ?.split(';')[0];
      return { status: res.statusCode, device };
    };
    // The same account on both (each test instance has its own database here).
    for (const [i, app] of apps.entries()) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: `10.66.2.${i + 1}`,
        payload: { email: 'owner@example.test', password: 'correct horse battery' },
      });
      expect(res.statusCode).toBe(201);
    }
    const { device } = await login(0, 'correct horse battery');
    expect(device).toBeDefined();
    // AUTH_RATE_LIMIT is 6 here: the owner's login and five guesses, then 429 on either instance.
    const guesses = [];
    for (let i = 1; i <= 6; i++) guesses.push((await login(i, `guess ${i}`)).status);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(0, 'correct horse battery')).status).toBe(429);
    expect((await login(1, 'correct horse battery', device)).status).toBe(200);
    expect((await login(0, 'correct horse battery', device)).status).toBe(200);
  });
});
