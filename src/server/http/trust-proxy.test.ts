import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { memoryRateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';
import { memoryMailer, openTestDatabase, testConfig } from '../test/harness';
import { parseTrustProxy } from './trust-proxy';

/*
 * The per-client login limit (AUTH_RATE_LIMIT, 2 here) shows which address the server counted: three
 * attempts counted as one client end in a 429, three counted as three clients do not.
 */
describe('X-Forwarded-For is believed only from configured proxies', () => {
  const opened: Array<{ app: FastifyInstance; database: Database }> = [];
  afterAll(async () => {
    for (const { app, database } of opened) {
      await app.close();
      await database.close();
    }
  });

  const appWith = async (env: Record<string, string> = {}) => {
    const database = await openTestDatabase('pglite');
    const app = await buildApp({
      config: testConfig({ AUTH_RATE_LIMIT: '2', ...env }),
      database,
      mailer: memoryMailer(),
      limiter: memoryRateLimiter(),
      hasher: createPasswordHasher({ N: 1024, r: 8, p: 1 }),
      logger: false,
    });
    opened.push({ app, database });
    return app;
  };

  let seq = 0;
  const attempt = async (app: FastifyInstance, peer: string, forwardedFor?: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: peer,
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
        payload: { email: `nobody${++seq}@example.test`, password: 'wrong-password' },
      })
    ).statusCode;

  it('counts an untrusted peer that spoofs X-Forwarded-For by its own address (production, no TRUST_PROXY)', async () => {
    // Production used to trust every peer.
    const app = await appWith({
      NODE_ENV: 'production',
      PAYMENTS: 'local',
      MAIL: 'outbox',
      TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
    });
    const statuses = [];
    for (const spoofed of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      statuses.push(await attempt(app, '203.0.113.9', spoofed));
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('honours the X-Forwarded-For of a listed proxy and ignores it from any other peer', async () => {
    const app = await appWith({ TRUST_PROXY: '10.0.0.0/24, 192.0.2.7' });
    // Three clients behind the trusted proxy: three buckets.
    const behindProxy = [];
    for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      behindProxy.push(await attempt(app, '10.0.0.7', client));
    expect(behindProxy).toEqual([401, 401, 401]);
    // A client prepending a fake hop is still counted by the address the proxy saw.
    expect(await attempt(app, '192.0.2.7', '203.0.113.50, 198.51.100.1')).toBe(401);
    expect(await attempt(app, '10.0.0.8', '203.0.113.51, 198.51.100.1')).toBe(429);
    // An untrusted peer sending the same header is counted by its own address.
    const direct = [];
    for (const spoofed of ['198.51.100.4', '198.51.100.5', '198.51.100.6'])
      direct.push(await attempt(app, '203.0.113.9', spoofed));
    expect(direct).toEqual([401, 401, 429]);
  });

  it('with a hop count, takes the address the nearest proxy appended', async () => {
    const app = await appWith({ TRUST_PROXY: '1' });
    const statuses = [];
    for (const fake of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      statuses.push(await attempt(app, '10.0.0.7', `${fake}, 198.51.100.9`));
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('parses TRUST_PROXY strictly', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, ::1, loopback')).toEqual(['10.0.0.0/8', '::1', 'loopback']);
    for (const bad of ['true', '0', '10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/9', '::1/129'])
      expect(parseTrustProxy(bad)).toBeInstanceOf(Error);
  });
});
