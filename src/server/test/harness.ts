import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, openPglite, openPostgres } from '../db/client';
import type { Mailer, MailMessage } from '../mail/mailer';
import { memoryRateLimiter, type RateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';

export type DbKind = 'pglite' | 'postgres';

let workerDbUrl: Promise<string> | undefined;
/**
 * This Vitest worker's own PostgreSQL database (created on first use, dropped by the global teardown), so
 * test files running in parallel never truncate each other's tables.
 */
export function testPostgresUrl(): Promise<string> {
  workerDbUrl ??= (async () => {
    const name = `${inject('postgresDbPrefix')}_w${process.env.VITEST_POOL_ID ?? '0'}`;
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    admin.on('error', () => {});
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } catch (err) {
      if ((err as { code?: string }).code !== '42P04') throw err; // already made by an earlier file
    } finally {
      await admin.end();
    }
    const url = new URL(inject('postgresAdminUrl'));
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return workerDbUrl;
}

/** Opens a test database: PGlite from the migrated template, or this worker's PostgreSQL database. */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'postgres') return openPostgres(await testPostgresUrl());
  const template = fs.readFileSync(inject('pgliteTemplate'));
  return openPglite(undefined, { loadDataDir: new Blob([template]) });
}

/** Empties every table of ours (the migrations journal lives in its own schema and stays). */
export async function resetDatabase(database: Database): Promise<void> {
  const rows = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows?: Array<{ tablename: string }> } & Array<{ tablename: string }>;
  const names = (rows.rows ?? rows).map((r) => `"${r.tablename}"`);
  if (names.length)
    await database.db.execute(sql.raw(`TRUNCATE ${names.join(', ')} RESTART IDENTITY CASCADE`));
}

/** Keeps sent mail in memory; the SMTP path has its own test against a real SMTP server. */
export function memoryMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (m) => void sent.push(m), close: () => {} };
}

export interface TestContext {
  kind: DbKind;
  app: FastifyInstance;
  database: Database;
  mail: MailMessage[];
  config: Config;
}

export const testConfig = (overrides: Record<string, string> = {}): Config =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '.data-test/unused',
    PUBLIC_ORIGIN: 'http://app.test',
    ADMIN_EMAILS: 'boss@example.test',
    SUPPORT_EMAIL: 'support@example.test',
    LOG_LEVEL: 'silent',
    // A fixed key, so no key file is written; tests of rotation build their own boxes.
    TOTP_ENCRYPTION_KEYS: `test:${Buffer.alloc(32, 7).toString('base64')}`,
    ...overrides,
  });

/**
 * Runs a server suite once on PGlite and once on PostgreSQL (skipped, with the reason in its name, when
 * PostgreSQL is not reachable). Tables are emptied before every test.
 */
export function describeEachDatabase(
  name: string,
  body: (ctx: TestContext) => void,
  opts: { env?: Record<string, string> } = {},
) {
  for (const kind of ['pglite', 'postgres'] as const) {
    const skipReason = kind === 'postgres' ? inject('postgresSkipReason') : '';
    const title = skipReason ? `${name} [${kind}] (skipped: ${skipReason})` : `${name} [${kind}]`;
    describe.skipIf(Boolean(skipReason))(title, () => {
      const ctx = { kind, mail: [] as MailMessage[] } as unknown as TestContext;
      // Rate-limit counters start empty for every test.
      const limiter = { inner: memoryRateLimiter() } as { inner: RateLimiter };
      const sharedLimiter: RateLimiter = {
        hit: (k, l, w) => limiter.inner.hit(k, l, w),
        consume: (k, l, w) => limiter.inner.consume(k, l, w),
        reset: (k) => limiter.inner.reset(k),
      };
      // Each suite's own data folder: test files run in parallel and their users share ids, so one shared
      // folder let a file delete "users/1/" while another wrote there (a 500 on account deletion, seen once).
      let dataDir = '';
      beforeAll(async () => {
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-suite-'));
        ctx.config = testConfig({ DATA_DIR: dataDir, ...opts.env });
        ctx.database = await openTestDatabase(kind);
        const mailer = memoryMailer();
        ctx.mail = mailer.sent;
        ctx.app = await buildApp({
          config: ctx.config,
          database: ctx.database,
          mailer,
          limiter: sharedLimiter,
          deliverMailBeforeReply: true,
          // Cheap scrypt keeps suites fast; the production parameters have their own test.
          hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
          logger: false,
        });
      });
      beforeEach(async () => {
        await resetDatabase(ctx.database);
        ctx.mail.length = 0;
        limiter.inner = memoryRateLimiter();
      });
      afterAll(async () => {
        await ctx.app?.close();
        await ctx.database?.close();
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      });
      body(ctx);
    });
  }
}

/** A tiny client over app.inject that keeps the session token like a browser keeps its cookie. */
export function client(app: FastifyInstance, ip = '10.0.0.1') {
  let token: string | undefined;
  const call = async (
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      payload: payload as InjectOptions['payload'],
      remoteAddress: ip,
      headers: { ...(token ? { 'x-auth-token': token } : {}), ...headers },
    });
    const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
    if (body && typeof body === 'object' && 'authToken' in body)
      token = (body as { authToken: string }).authToken;
    return { status: res.statusCode, body, headers: res.headers };
  };
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload, headers),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    delete: (url: string, payload?: unknown) => call('DELETE', url, payload),
    get token() {
      return token;
    },
    set token(t: string | undefined) {
      token = t;
    },
  };
}

let userSeq = 0;
/** Registers a user through the API and returns the signed-in client. */
export async function signedUpClient(app: FastifyInstance, email = `user${++userSeq}@example.test`) {
  const c = client(app, `10.1.${Math.floor(userSeq / 250)}.${userSeq % 250}`);
  const res = await c.post('/api/auth/register', { email, password: 'correct horse battery' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { c, user: res.body as { id: number; email: string; username: string } };
}

/** The token of the newest email-confirmation link mailed to `email`. */
export function verificationTokenIn(mail: MailMessage[], email: string): string {
  const text = mail.filter((m) => m.to.toLowerCase() === email.toLowerCase()).at(-1)?.text ?? '';
  const match = text.match(/\/verify-email\?token=([\w%-]+)/);
  if (!match?.[1]) throw new Error(`no confirmation link mailed to ${email}`);
  return decodeURIComponent(match[1]);
}

/** Registers a user and confirms its address with the mailed link, as its owner would. */
export async function verifiedClient(ctx: TestContext, email?: string) {
  const signedUp = await signedUpClient(ctx.app, email);
  const res = await signedUp.c.post('/api/auth/verify-email', {
    token: verificationTokenIn(ctx.mail, signedUp.user.email),
  });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return signedUp;
}

/** Turns on two-factor authentication for a signed-in client; returns a code generator for its secret. */
export async function enableTwoFactor(c: ReturnType<typeof client>, nowMs: () => number = Date.now) {
  const { totpCode, timeStep } = await import('../security/totp');
  const setup = await c.post('/api/auth/2fa/setup');
  if (setup.status !== 200)
    throw new Error(`2fa setup failed: ${setup.status} ${JSON.stringify(setup.body)}`);
  const { secret } = setup.body as { secret: string };
  const code = (offsetSteps = 0) => totpCode(secret, timeStep(nowMs()) + offsetSteps);
  const enabled = await c.post('/api/auth/2fa/enable', { code: code() });
  if (enabled.status !== 200)
    throw new Error(`2fa enable failed: ${enabled.status} ${JSON.stringify(enabled.body)}`);
  return { secret, code, recoveryCodes: (enabled.body as { recoveryCodes: string[] }).recoveryCodes };
}
