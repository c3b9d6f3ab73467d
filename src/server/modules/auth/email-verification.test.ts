import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import {
  client,
  describeEachDatabase,
  enableTwoFactor,
  signedUpClient,
  verificationTokenIn,
} from '../../test/harness';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describeEachDatabase('email verification', (ctx) => {
  const verified = async (email: string) =>
    rowsOf<{ v: boolean }>(
      await ctx.database.db.execute(
        sql`select email_verified_at is not null as v from users where email = ${email}`,
      ),
    )[0]?.v;

  it('mails a link at registration and stores only its digest', async () => {
    const { c } = await signedUpClient(ctx.app, 'new@example.test');
    expect(ctx.mail).toHaveLength(1);
    expect(ctx.mail[0]).toMatchObject({ to: 'new@example.test' });
    expect(ctx.mail[0]!.text).toContain('http://app.test/verify-email?token=');
    const token = verificationTokenIn(ctx.mail, 'new@example.test');
    expect(token.length).toBeGreaterThanOrEqual(43);
    const stored = rowsOf<{ token_hash: string; expires: number }>(
      await ctx.database.db.execute(
        sql`select token_hash, extract(epoch from (expires_at - created_at))::int as expires from email_verification_tokens`,
      ),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(stored[0]!.expires).toBe(24 * 3600);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ emailVerified: false });
  });

  it('does not make an unconfirmed ADMIN_EMAILS address admin, at registration or at login', async () => {
    // The squatter registers the owner's address before the owner does, and turns on 2FA.
    const { c: squatter } = await signedUpClient(ctx.app, 'boss@example.test');
    const { code } = await enableTwoFactor(squatter);
    expect((await squatter.get('/api/auth/user')).body).toMatchObject({ isAdmin: false });
    const stats = await squatter.get('/api/admin/stats');
    expect(stats.status).toBe(403);
    expect(stats.body).toMatchObject({ message: MESSAGES.adminRequired });

    const again = client(ctx.app);
    const login = await again.post('/api/auth/login', {
      email: 'boss@example.test',
      password: 'correct horse battery',
      otp: code(1),
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ isAdmin: false });
    expect((await again.get('/api/admin/stats')).status).toBe(403);
  });

  it('grants ADMIN_EMAILS admin at the moment the address is confirmed, once', async () => {
    const { c } = await signedUpClient(ctx.app, 'boss@example.test');
    const token = verificationTokenIn(ctx.mail, 'boss@example.test');
    const res = await c.post('/api/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.emailVerified });
    expect((await c.get('/api/auth/user')).body).toMatchObject({ emailVerified: true, isAdmin: true });
    const twice = await c.post('/api/auth/verify-email', { token });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ message: MESSAGES.emailAlreadyVerified });
  });

  it("refuses another account's link, an expired or made-up one, and changes nothing", async () => {
    await signedUpClient(ctx.app, 'boss@example.test');
    const bossToken = verificationTokenIn(ctx.mail, 'boss@example.test');
    const { c: other } = await signedUpClient(ctx.app, 'other@example.test');
    const otherToken = verificationTokenIn(ctx.mail, 'other@example.test');

    // The owner of a squatted address opening the link while signed in as someone else verifies nothing.
    const stolen = await other.post('/api/auth/verify-email', { token: bossToken });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({ code: 'invalid_token', message: MESSAGES.verifyLinkInvalid });
    expect(await verified('boss@example.test')).toBe(false);
    expect(await verified('other@example.test')).toBe(false);

    const signedOut = await client(ctx.app).post('/api/auth/verify-email', { token: bossToken });
    expect(signedOut.status).toBe(401);

    for (const token of ['made-up-token', '']) {
      const res = await other.post('/api/auth/verify-email', { token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: MESSAGES.verifyLinkInvalid });
    }
    await ctx.database.db.execute(
      sql`update email_verification_tokens set expires_at = now() - interval '1 minute'`,
    );
    const late = await other.post('/api/auth/verify-email', { token: otherToken });
    expect(late.status).toBe(400);
    expect(await verified('other@example.test')).toBe(false);
    // The unexpired link of boss still works for boss's own session (nothing was consumed above).
    await ctx.database.db.execute(
      sql`update email_verification_tokens set expires_at = now() + interval '1 hour'`,
    );
    const boss = client(ctx.app);
    await boss.post('/api/auth/login', { email: 'boss@example.test', password: 'correct horse battery' });
    expect((await boss.post('/api/auth/verify-email', { token: bossToken })).status).toBe(200);
  });

  it('sends a new link on demand, 3 an hour with the first, and every older link dies with the one used', async () => {
    const { c } = await signedUpClient(ctx.app, 'again@example.test');
    const first = verificationTokenIn(ctx.mail, 'again@example.test');
    for (let i = 0; i < 2; i++) {
      const res = await c.post('/api/auth/verify-email/send');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: MESSAGES.verificationSent });
    }
    const limited = await c.post('/api/auth/verify-email/send');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: MESSAGES.tooManyMails, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect(ctx.mail).toHaveLength(3);
    expect((await client(ctx.app).post('/api/auth/verify-email/send')).status).toBe(401);

    const newest = verificationTokenIn(ctx.mail, 'again@example.test');
    expect(newest).not.toBe(first);
    expect((await c.post('/api/auth/verify-email', { token: newest })).status).toBe(200);
    const old = await c.post('/api/auth/verify-email', { token: first });
    expect(old.status).toBe(409);
    const used = rowsOf<{ n: number }>(
      await ctx.database.db.execute(
        sql`select count(*)::int as n from email_verification_tokens where used_at is null`,
      ),
    );
    expect(used[0]?.n).toBe(0);
  });

  it('sends no link to a confirmed address', async () => {
    const { c } = await signedUpClient(ctx.app, 'done@example.test');
    await c.post('/api/auth/verify-email', { token: verificationTokenIn(ctx.mail, 'done@example.test') });
    const res = await c.post('/api/auth/verify-email/send');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: MESSAGES.emailAlreadyVerified });
    expect(ctx.mail).toHaveLength(1);
  });

  it('ten requests racing with one link confirm once and grant once', async () => {
    const { c } = await signedUpClient(ctx.app, 'boss@example.test');
    const token = verificationTokenIn(ctx.mail, 'boss@example.test');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => c.post('/api/auth/verify-email', { token })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 400 || r.status === 409)).toBe(
      true,
    );
    const rows = rowsOf<{ used: number; admins: number }>(
      await ctx.database.db.execute(
        sql`select (select count(*)::int from email_verification_tokens where used_at is not null) as used,
                   (select count(*)::int from users where is_admin and admin_granted_by = 'config') as admins`,
      ),
    );
    expect(rows[0]).toEqual({ used: 1, admins: 1 });
  });
});
