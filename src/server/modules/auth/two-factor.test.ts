import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { timeStep, totpCode } from '../../security/totp';
import {
  client,
  describeEachDatabase,
  enableTwoFactor,
  signedUpClient,
  verifiedClient,
} from '../../test/harness';

const password = 'correct horse battery';

describeEachDatabase('two-factor authentication', (ctx) => {
  it('enrols with a code from the app and shows ten recovery codes once', async () => {
    const { c } = await signedUpClient(ctx.app, 'tfa@example.test');
    const setup = await c.post('/api/auth/2fa/setup');
    expect(setup.body).toMatchObject({
      otpauthUrl: expect.stringMatching(
        /^otpauth:\/\/totp\/Master%20Your%20Mix%3Atfa%40example.test\?secret=[A-Z2-7]{32}&/,
      ),
    });
    const { secret } = setup.body as { secret: string };
    expect((await c.post('/api/auth/2fa/enable', { code: '000000' })).status).toBe(400);
    const ok = await c.post('/api/auth/2fa/enable', { code: totpCode(secret, timeStep(Date.now())) });
    expect(ok.status).toBe(200);
    const codes = (ok.body as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ twoFactorEnabled: true });
    const stored = await ctx.database.db.execute(sql`select code_hash from recovery_codes`);
    const hashes = (stored as unknown as { rows: Array<{ code_hash: string }> }).rows.map((r) => r.code_hash);
    for (const code of codes) expect(hashes.join()).not.toContain(code);
  });

  it('asks for the code at login after the password, refuses a wrong or replayed code', async () => {
    const { c } = await signedUpClient(ctx.app, 'login2fa@example.test');
    const { code } = await enableTwoFactor(c);

    const noCode = await client(ctx.app).post('/api/auth/login', {
      email: 'login2fa@example.test',
      password,
    });
    expect(noCode.status).toBe(401);
    expect(noCode.body).toMatchObject({ code: 'two_factor_required', message: MESSAGES.twoFactorRequired });

    const wrongPassword = await client(ctx.app).post('/api/auth/login', {
      email: 'login2fa@example.test',
      password: 'wrong-one',
    });
    expect(wrongPassword.body).toMatchObject({ message: MESSAGES.invalidCredentials });

    const bad = await client(ctx.app).post('/api/auth/login', {
      email: 'login2fa@example.test',
      password,
      otp: '123456',
    });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'two_factor_invalid' });

    // The code used to enable is spent; the next step's code is accepted once.
    const next = code(1);
    const good = client(ctx.app);
    expect(
      (await good.post('/api/auth/login', { email: 'login2fa@example.test', password, otp: next })).status,
    ).toBe(200);
    expect((await good.get('/api/auth/user')).status).toBe(200);
    const replay = await client(ctx.app).post('/api/auth/login', {
      email: 'login2fa@example.test',
      password,
      otp: next,
    });
    expect(replay.status).toBe(401);
  });

  it('accepts each recovery code once', async () => {
    const { c } = await signedUpClient(ctx.app, 'recover@example.test');
    const { recoveryCodes } = await enableTwoFactor(c);
    const first = recoveryCodes[0]!.toLowerCase();
    const ok = await client(ctx.app).post('/api/auth/login', {
      email: 'recover@example.test',
      password,
      recoveryCode: first,
    });
    expect(ok.status).toBe(200);
    const again = await client(ctx.app).post('/api/auth/login', {
      email: 'recover@example.test',
      password,
      recoveryCode: first,
    });
    expect(again.status).toBe(401);
  });

  it('turns off only with a valid code', async () => {
    const { c } = await signedUpClient(ctx.app, 'off@example.test');
    const { code } = await enableTwoFactor(c);
    expect((await c.post('/api/auth/2fa/disable', { otp: '999999' })).status).toBe(400);
    expect((await c.post('/api/auth/2fa/disable', { otp: code(1) })).status).toBe(200);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ twoFactorEnabled: false });
    expect(
      (await client(ctx.app).post('/api/auth/login', { email: 'off@example.test', password })).status,
    ).toBe(200);
  });

  it('requires two-factor authentication for the admin dashboard', async () => {
    const { c } = await verifiedClient(ctx, 'boss@example.test');
    const before = await c.get('/api/admin/stats');
    expect(before.status).toBe(403);
    expect(before.body).toMatchObject({ code: 'two_factor_required_for_admin' });
    await enableTwoFactor(c);
    expect((await c.get('/api/admin/stats')).status).toBe(200);
  });

  it('limits code attempts per user', async () => {
    const { c } = await signedUpClient(ctx.app, 'brute@example.test');
    await c.post('/api/auth/2fa/setup');
    const answers = [];
    for (let i = 0; i < 11; i++)
      answers.push(await c.post('/api/auth/2fa/enable', { code: String(100000 + i) }));
    expect(answers.slice(0, 10).every((a) => a.status === 400)).toBe(true);
    expect(answers[10]?.status).toBe(429);
    // The client is told when to try again: the rest of the 15-minute window.
    expect(Number(answers[10]?.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(answers[10]?.headers['retry-after'])).toBeLessThanOrEqual(900);
  });
});
