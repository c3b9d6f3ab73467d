import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { buildApp } from '../app';
import { memoryRateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';
import { client, describeEachDatabase, memoryMailer, signedUpClient } from '../test/harness';
import { inboxOf, MAIL_LIMITS } from './address-budget';

const PASSWORD = 'correct horse battery';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe('inbox of an address', () => {
  it.each([
    ['Victim@Example.com', 'victim@example.com'],
    ['victim+promo@example.com', 'victim@example.com'],
    ['v.i.c.t.i.m+x@gmail.com', 'victim@gmail.com'],
    ['Victim@GoogleMail.com', 'victim@gmail.com'],
    // Dots matter elsewhere: only Gmail ignores them.
    ['v.ictim@example.com', 'v.ictim@example.com'],
    ['+odd@example.com', '+odd@example.com'],
  ])('%s counts as %s', (address, inbox) => {
    expect(inboxOf(address)).toBe(inbox);
  });
});

describeEachDatabase('mail limits per address', (ctx) => {
  const confirmations = (to: string) =>
    ctx.mail.filter((m) => inboxOf(m.to) === inboxOf(to) && m.subject.startsWith('Confirm your'));
  /** Moves every counted mail `minutes` into the past, as if that much time had gone by. */
  const age = (minutes: number) =>
    ctx.database.db.execute(
      sql`update mail_address_sends set sent_at = sent_at - make_interval(mins => ${minutes})`,
    );

  /** Issue 29: register an address, delete the account, register again, each time from a new client. */
  const cycle = async (i: number, email: string) => {
    const c = client(ctx.app, `198.51.${Math.floor(i / 200)}.${(i % 200) + 1}`);
    const reg = await c.post('/api/auth/register', { email, password: PASSWORD });
    expect(reg.status).toBe(201);
    expect((await c.delete('/api/auth/account', { confirm: email })).status).toBe(200);
  };

  it('sends one address at most 3 confirmation mails an hour and 5 a day, across clients and deleted accounts', async () => {
    for (let i = 0; i < 35; i++) await cycle(i, 'victim@example.test');
    expect(confirmations('victim@example.test')).toHaveLength(MAIL_LIMITS.confirm.perHour);
    // An hour later the hour's budget is back, the day's is not.
    await age(61);
    for (let i = 35; i < 70; i++) await cycle(i, 'victim@example.test');
    expect(confirmations('victim@example.test')).toHaveLength(MAIL_LIMITS.confirm.perDay);
    await age(61);
    for (let i = 70; i < 75; i++) await cycle(i, 'victim@example.test');
    expect(confirmations('victim@example.test')).toHaveLength(MAIL_LIMITS.confirm.perDay);
    // A day after the first mails, they count no more.
    await age(24 * 60);
    await cycle(75, 'victim@example.test');
    expect(confirmations('victim@example.test')).toHaveLength(MAIL_LIMITS.confirm.perDay + 1);
    // Only digests are kept, and only for a day.
    const kept = rowsOf<{ inbox_hash: string }>(
      await ctx.database.db.execute(sql`select inbox_hash from mail_address_sends`),
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]!.inbox_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('counts sub-addresses and Gmail dots as the inbox they reach', async () => {
    const spellings = [
      'victim@gmail.com',
      'vic.tim@gmail.com',
      'victim+1@gmail.com',
      'v.i.ctim+2@googlemail.com',
      'VICTIM+3@gmail.com',
    ];
    for (const [i, email] of spellings.entries()) await cycle(i, email);
    expect(confirmations('victim@gmail.com')).toHaveLength(MAIL_LIMITS.confirm.perHour);
  });

  it('keeps registering while the address is over its limit, and Settings says so on a resend', async () => {
    for (let i = 0; i < 3; i++) await cycle(i, 'owner@example.test');
    const { c } = await signedUpClient(ctx.app, 'owner@example.test');
    expect((await c.get('/api/auth/user')).body).toMatchObject({ email: 'owner@example.test' });
    const resend = await c.post('/api/auth/verify-email/send');
    expect(resend.status).toBe(429);
    expect(resend.body).toEqual({ message: MESSAGES.tooManyMails, code: 'rate_limited' });
    const wait = Number(resend.headers['retry-after']);
    expect(wait).toBeGreaterThan(55 * 60);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(confirmations('owner@example.test')).toHaveLength(3);
  });

  it('holds under ten resends at once', async () => {
    const { c } = await signedUpClient(ctx.app, 'racer@example.test');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => c.post('/api/auth/verify-email/send')),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAIL_LIMITS.confirm.perHour - 1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10 - (MAIL_LIMITS.confirm.perHour - 1));
    expect(confirmations('racer@example.test')).toHaveLength(MAIL_LIMITS.confirm.perHour);
  });

  it('limits password-reset mail per address the same way, for an account or none, with one answer', async () => {
    await signedUpClient(ctx.app, 'reset@example.test');
    for (const email of ['reset@example.test', 'nobody@example.test']) {
      for (let i = 0; i < 10; i++) {
        const res = await client(ctx.app, `203.0.113.${i + 1}`).post('/api/auth/forgot-password', { email });
        expect(res.body).toEqual({ message: MESSAGES.resetSent });
      }
    }
    const resets = ctx.mail.filter((m) => m.subject === 'Reset your Master Your Mix password');
    expect(resets.map((m) => m.to)).toEqual(Array(MAIL_LIMITS.reset.perHour).fill('reset@example.test'));
    // The unknown address spent its own budget: the work is the same whether or not the account exists.
    const counted = rowsOf<{ kind: string; n: number }>(
      await ctx.database.db.execute(
        sql`select kind, count(*)::int as n from mail_address_sends group by kind order by kind`,
      ),
    );
    expect(counted).toEqual([
      { kind: 'confirm', n: 1 },
      { kind: 'reset', n: 2 * MAIL_LIMITS.reset.perHour },
    ]);
  });

  it('is shared by every instance on the database, without Redis', async () => {
    // A second server on the same database, with its own in-memory rate limiter (no Redis).
    const mailer = memoryMailer();
    const other = await buildApp({
      config: ctx.config,
      database: ctx.database,
      mailer,
      limiter: memoryRateLimiter(),
      deliverMailBeforeReply: true,
      hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
      logger: false,
    });
    try {
      for (let i = 0; i < 4; i++) {
        const app = i % 2 === 0 ? ctx.app : other;
        const c = client(app, `192.0.2.${i + 1}`);
        expect(
          (await c.post('/api/auth/register', { email: 'shared@example.test', password: PASSWORD })).status,
        ).toBe(201);
        expect((await c.delete('/api/auth/account', { confirm: 'shared@example.test' })).status).toBe(200);
      }
      expect(confirmations('shared@example.test').length + mailer.sent.length).toBe(
        MAIL_LIMITS.confirm.perHour,
      );
    } finally {
      await other.close();
    }
  });
});
