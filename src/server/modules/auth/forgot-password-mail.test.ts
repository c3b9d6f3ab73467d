import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { buildApp } from '../../app';
import type { Database } from '../../db/client';
import type { MailQueue } from '../../mail/mail-queue';
import { smtpMailer } from '../../mail/mailer';
import { startTestSmtp, type TestSmtp } from '../../mail/test-smtp';
import { memoryRateLimiter } from '../../rate-limit/limiter';
import { createPasswordHasher } from '../../security/passwords';
import { createSecretBox } from '../../security/secret-box';
import {
  describeEachDatabase,
  openTestDatabase,
  resetDatabase,
  signedUpClient,
  testConfig,
} from '../../test/harness';
import { createAuthService } from './auth-service';
import { createSessionService } from './session-service';
import { createTotpSecrets } from './totp-secrets';
import { createTwoFactorService } from './two-factor-service';

/** A loopback port nobody listens on: SMTP is down. */
const deadPort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The old code answered only once SMTP had the mail; a held mail server would keep it waiting forever. */
const answeredWithin = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

for (const kind of ['pglite', 'postgres'] as const) {
  const skipReason = kind === 'postgres' ? inject('postgresSkipReason') : '';
  const title = `forgot-password with real SMTP [${kind}]${skipReason ? ` (skipped: ${skipReason})` : ''}`;
  describe.skipIf(Boolean(skipReason))(title, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** The app as production builds it: SMTP transport behind the queue, worker running. */
    const appWithSmtp = async (port: number): Promise<FastifyInstance> => {
      const database: Database = await openTestDatabase(kind);
      await resetDatabase(database);
      const transport = smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@example.test');
      const app = await buildApp({
        config: testConfig(),
        database,
        mailer: transport,
        limiter: memoryRateLimiter(),
        hasher: createPasswordHasher({ N: 1024, r: 8, p: 1 }),
        logger: false,
      });
      cleanups.push(async () => {
        await app.close();
        transport.close();
        await database.close();
      });
      const registered = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'known@example.test', password: 'correct horse battery' },
      });
      expect(registered.statusCode).toBe(201);
      return app;
    };
    const forgot = async (app: FastifyInstance, email: string) => {
      const res = await answeredWithin(
        app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } }),
        10_000,
      );
      return { status: res.statusCode, body: res.json() };
    };

    it('answers a known and an unknown email alike, before the (slow) mail server has the mail', async () => {
      const smtp: TestSmtp = await startTestSmtp(0, { hold: true });
      cleanups.push(() => smtp.close());
      const app = await appWithSmtp(smtp.port);

      const known = await forgot(app, 'known@example.test');
      const unknown = await forgot(app, 'ghost@example.test');
      expect(known).toEqual({ status: 200, body: { message: MESSAGES.resetSent } });
      expect(unknown).toEqual(known);
      // Both answered while the mail server still held the mail: no delivery on the request path.
      expect(smtp.received).toHaveLength(0);

      // The mail server holds the first mail it gets (registration's confirmation link, then the reset).
      await vi.waitFor(() => expect(smtp.holding[0]).toEqual(['known@example.test']), { timeout: 10_000 });
      smtp.release();
      const resets = () =>
        smtp.received.filter((m) =>
          m.raw.replace(/=\r?\n/g, '').includes('http://app.test/reset-password?token='),
        );
      await vi.waitFor(() => expect(resets()).toHaveLength(1), { timeout: 10_000 });
      expect(smtp.holding.flat().every((to) => to === 'known@example.test')).toBe(true);
    });

    it('answers a known and an unknown email alike while the mail server is down', async () => {
      const app = await appWithSmtp(await deadPort());
      const known = await forgot(app, 'known@example.test');
      const unknown = await forgot(app, 'ghost@example.test');
      expect(known).toEqual({ status: 200, body: { message: MESSAGES.resetSent } });
      expect(unknown).toEqual(known);
    });
  });
}

describeEachDatabase('forgot-password on the request path', (ctx) => {
  it('queues the same thing and writes nothing else for a known and an unknown email', async () => {
    await signedUpClient(ctx.app, 'known@example.test');
    const queued: unknown[] = [];
    const recordingQueue: MailQueue = {
      send: async (m) => void queued.push(m),
      sendComposed: async (kind, data) => void queued.push({ kind, data }),
      addComposer: () => {},
      start: () => {},
      stop: async () => {},
      deliverDue: async () => {},
      depth: async () => queued.length,
      close: () => {},
    };
    const auth = createAuthService({
      db: ctx.database.db,
      hasher: createPasswordHasher({ N: 1024, r: 8, p: 1 }),
      sessions: createSessionService(ctx.database, 3600),
      twoFactor: createTwoFactorService(
        ctx.database.db,
        createTotpSecrets(ctx.database.db, createSecretBox([{ id: 't', key: randomBytes(32) }])),
      ),
      mailer: recordingQueue,
      publicOrigin: 'http://app.test',
      adminEmails: [],
      accountCleanups: [],
    });
    await auth.requestPasswordReset('known@example.test');
    await auth.requestPasswordReset('ghost@example.test');
    expect(queued).toEqual([
      { kind: 'password-reset', data: { email: 'known@example.test' } },
      { kind: 'password-reset', data: { email: 'ghost@example.test' } },
    ]);
    const tokens = await ctx.database.db.execute(sql`select count(*)::int as n from password_reset_tokens`);
    expect(((tokens as unknown as { rows: Array<{ n: number }> }).rows ?? tokens)[0]?.n).toBe(0);
  });
});
