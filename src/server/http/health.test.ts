import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { memoryRateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';
import { memoryMailer, openTestDatabase, testConfig } from '../test/harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const open: Array<() => unknown> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A real app on PGlite with its files under a fresh DATA_DIR; Redis only when given. */
async function app(
  opts: { redis?: Redis } = {},
): Promise<{ app: FastifyInstance; database: Database; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'health-'));
  const database = await openTestDatabase('pglite');
  const built = await buildApp({
    config: testConfig({ DATA_DIR: dataDir }),
    database,
    mailer: memoryMailer(),
    limiter: memoryRateLimiter(),
    hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
    redis: opts.redis,
    logger: false,
  });
  open.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  open.push(() => database.close().catch(() => {}));
  open.push(() => built.close());
  return { app: built, database, dataDir };
}

function redisClient(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  redis.on('error', () => {});
  open.push(() => redis.disconnect());
  return redis;
}

describe('health', () => {
  it('reports the database and the storage separately, and no Redis when none is configured', async () => {
    const { app: a } = await app();
    const res = await a.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      database: { status: 'ok', kind: 'pglite' },
      storage: { status: 'ok', kind: 'disk' },
    });
  });

  it('names the storage when only the storage is down', async () => {
    const { app: a, dataDir } = await app();
    // A regular file where the storage folder must be: nothing can be written under it.
    fs.rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
    fs.writeFileSync(path.join(dataDir, 'files'), 'not a folder');
    const res = await a.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      ok: false,
      database: { status: 'ok' },
      storage: { status: 'down' },
      message: 'Unavailable: storage',
      code: 'unavailable',
    });
  });

  it('names the database when only the database is down, while liveness still answers', async () => {
    const { app: a, database } = await app();
    await database.close();
    const res = await a.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      ok: false,
      database: { status: 'down', kind: 'pglite' },
      storage: { status: 'ok' },
      message: 'Unavailable: database',
    });
    const live = await a.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ ok: true });
  });

  it('reports a configured Redis, up and down', async () => {
    const up = redisClient(REDIS_URL);
    const reachable = await up.connect().then(
      () => true,
      () => false,
    );
    if (reachable) {
      const res = await (await app({ redis: up })).app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, redis: { status: 'ok' } });
    }
    // Nothing listens on port 1: the Redis of this app is down, everything else is fine.
    const down = redisClient('redis://127.0.0.1:1');
    const res = await (await app({ redis: down })).app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      ok: false,
      database: { status: 'ok' },
      storage: { status: 'ok' },
      redis: { status: 'down' },
      message: 'Unavailable: redis',
    });
  });
  it('answers 503 on both probes once draining, while requests are still served', async () => {
    const { app: a } = await app();
    expect((await a.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    a.drain();
    for (const url of ['/api/health/live', '/api/health']) {
      const res = await a.inject({ url });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({
        ok: false,
        message: 'The service is temporarily unavailable. Please try again in a moment.',
        code: 'shutting_down',
      });
    }
    // Only the load balancer's signal changes: the API itself still answers.
    expect((await a.inject({ url: '/api/config' })).statusCode).toBe(200);
  });
});
