import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import {
  client,
  describeEachDatabase,
  enableTwoFactor,
  signedUpClient,
  verifiedClient,
} from '../../test/harness';

const linkIn = (text: string) => {
  const match = text.match(/http:\/\/app\.test\/reset-password\?token=([\w%-]+)/);
  if (!match?.[1]) throw new Error(`no reset link in: ${text}`);
  return decodeURIComponent(match[1]);
};

describeEachDatabase('password reset', (ctx) => {
  // Registration also mails an email-confirmation link; these tests read the reset mails.
  const resetMails = () => ctx.mail.filter((m) => m.subject === 'Reset your Master Your Mix password');
  it('mails a link for a known email and answers the same for an unknown one', async () => {
    await signedUpClient(ctx.app, 'reset@example.test');
    const known = await client(ctx.app).post('/api/auth/forgot-password', { email: 'Reset@example.test' });
    const unknown = await client(ctx.app).post('/api/auth/forgot-password', { email: 'ghost@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({ message: MESSAGES.resetSent });
    expect(resetMails()).toHaveLength(1);
    expect(resetMails()[0]?.to).toBe('reset@example.test');
    expect(linkIn(resetMails()[0]!.text).length).toBeGreaterThanOrEqual(43);
  });

  it('validates the email', async () => {
    const res = await client(ctx.app).post('/api/auth/forgot-password', { email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MESSAGES.invalidEmail });
  });

  it('stores only a digest of the token', async () => {
    await signedUpClient(ctx.app, 'digest@example.test');
    await client(ctx.app).post('/api/auth/forgot-password', { email: 'digest@example.test' });
    const token = linkIn(resetMails()[0]!.text);
    const rows = await ctx.database.db.execute(sql`select token_hash from password_reset_tokens`);
    const stored = (rows as unknown as { rows: Array<{ token_hash: string }> }).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(token);
  });

  it('resets once, revokes every session, and lets the new password in', async () => {
    const { c: phone } = await signedUpClient(ctx.app, 'owner@example.test');
    const laptop = client(ctx.app);
    await laptop.post('/api/auth/login', { email: 'owner@example.test', password: 'correct horse battery' });
    await client(ctx.app).post('/api/auth/forgot-password', { email: 'owner@example.test' });
    const token = linkIn(resetMails()[0]!.text);

    const res = await client(ctx.app).post('/api/auth/reset-password', {
      token,
      newPassword: 'a brand new secret',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.resetDone });
    expect((await phone.get('/api/auth/user')).status).toBe(401);
    expect((await laptop.get('/api/auth/user')).status).toBe(401);

    const again = await client(ctx.app).post('/api/auth/reset-password', {
      token,
      newPassword: 'another secret!',
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: MESSAGES.resetLinkInvalid });

    const old = await client(ctx.app).post('/api/auth/login', {
      email: 'owner@example.test',
      password: 'correct horse battery',
    });
    expect(old.status).toBe(401);
    const fresh = await client(ctx.app).post('/api/auth/login', {
      email: 'owner@example.test',
      password: 'a brand new secret',
    });
    expect(fresh.status).toBe(200);
  });

  it('refuses an expired token', async () => {
    await signedUpClient(ctx.app, 'late@example.test');
    await client(ctx.app).post('/api/auth/forgot-password', { email: 'late@example.test' });
    const token = linkIn(resetMails()[0]!.text);
    await ctx.database.db.execute(
      sql`update password_reset_tokens set expires_at = now() - interval '1 minute'`,
    );
    const res = await client(ctx.app).post('/api/auth/reset-password', {
      token,
      newPassword: 'a brand new secret',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MESSAGES.resetLinkInvalid });
  });

  it('expires tokens after 30 minutes', async () => {
    await signedUpClient(ctx.app, 'ttl@example.test');
    await client(ctx.app).post('/api/auth/forgot-password', { email: 'ttl@example.test' });
    const rows = await ctx.database.db.execute(
      sql`select extract(epoch from (expires_at - created_at))::int as seconds from password_reset_tokens`,
    );
    expect((rows as unknown as { rows: Array<{ seconds: number }> }).rows[0]?.seconds).toBe(1800);
  });

  it.each([
    [{ token: 'made-up-token', newPassword: 'long enough' }, MESSAGES.resetLinkInvalid],
    [{ newPassword: 'long enough' }, MESSAGES.resetLinkInvalid],
    [{ token: 'whatever', newPassword: '12345' }, MESSAGES.passwordTooShort],
  ])('rejects %j', async (body, message) => {
    const res = await client(ctx.app).post('/api/auth/reset-password', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message });
  });

  it('sends at most 3 mails an hour to one address, with the same answer', async () => {
    await signedUpClient(ctx.app, 'spam@example.test');
    for (let i = 0; i < 5; i++) {
      const res = await client(ctx.app, `10.5.0.${i}`).post('/api/auth/forgot-password', {
        email: 'spam@example.test',
      });
      expect(res.body).toEqual({ message: MESSAGES.resetSent });
    }
    expect(resetMails()).toHaveLength(3);
  });

  const resetThroughMail = async (email: string, newPassword: string) => {
    await client(ctx.app).post('/api/auth/forgot-password', { email });
    const reset = resetMails().at(-1)!;
    return client(ctx.app).post('/api/auth/reset-password', { token: linkIn(reset.text), newPassword });
  };

  it("gives a squatted ADMIN_EMAILS account back to the address's owner, without the squatter's 2FA", async () => {
    // Someone registered the owner's address first and turned on two-factor authentication.
    const { c: squatter } = await signedUpClient(ctx.app, 'boss@example.test');
    await enableTwoFactor(squatter);

    const res = await resetThroughMail('boss@example.test', 'the owner is back');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.resetDoneTwoFactorRemoved });
    expect((await squatter.get('/api/auth/user')).status).toBe(401);

    const owner = client(ctx.app);
    const login = await owner.post('/api/auth/login', {
      email: 'boss@example.test',
      password: 'the owner is back',
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ emailVerified: true, isAdmin: true, twoFactorEnabled: false });
    const left = await ctx.database.db.execute(
      sql`select (select count(*)::int from recovery_codes) as codes,
                 (select count(*)::int from users where totp_secret is not null) as secrets`,
    );
    expect((left as unknown as { rows: unknown[] }).rows[0]).toEqual({ codes: 0, secrets: 0 });
  });

  it('keeps a second factor set up after the address was confirmed', async () => {
    const { c } = await verifiedClient(ctx, 'careful@example.test');
    const { code } = await enableTwoFactor(c);
    const res = await resetThroughMail('careful@example.test', 'a brand new secret');
    expect(res.body).toEqual({ message: MESSAGES.resetDone });
    const noCode = await client(ctx.app).post('/api/auth/login', {
      email: 'careful@example.test',
      password: 'a brand new secret',
    });
    expect(noCode.body).toMatchObject({ code: 'two_factor_required' });
    const withCode = await client(ctx.app).post('/api/auth/login', {
      email: 'careful@example.test',
      password: 'a brand new secret',
      otp: code(1),
    });
    expect(withCode.status).toBe(200);
  });

  it('confirms the address of an account without 2FA and says nothing more', async () => {
    const { c } = await signedUpClient(ctx.app, 'plain@example.test');
    const res = await resetThroughMail('plain@example.test', 'a brand new secret');
    expect(res.body).toEqual({ message: MESSAGES.resetDone });
    c.token = undefined;
    const login = await c.post('/api/auth/login', {
      email: 'plain@example.test',
      password: 'a brand new secret',
    });
    expect(login.body).toMatchObject({ emailVerified: true, isAdmin: false });
  });
});
