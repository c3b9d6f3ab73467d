import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { client, describeEachDatabase, signedUpClient, verificationTokenIn } from '../../test/harness';

describeEachDatabase('auth', (ctx) => {
  const password = 'correct horse battery';

  it('registers with the username taken from the email and signs the user in', async () => {
    const c = client(ctx.app);
    const res = await c.post('/api/auth/register', { email: 'Singer@Example.test', password });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: 'Singer@Example.test',
      username: 'Singer',
      hasSubscription: false,
      subscriptionType: null,
      mixCredits: 0,
      masteringCredits: 0,
      crowns: 0,
      isAdmin: false,
    });
    expect(res.headers['set-cookie']).toMatch(
      /^sid=[\w-]{40,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/,
    );
    const me = await c.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'Singer@Example.test', username: 'Singer' });
  });

  it('keeps an explicit username', async () => {
    const res = await client(ctx.app).post('/api/auth/register', {
      email: 'a@example.test',
      username: 'DJ A',
      password,
    });
    expect(res.body).toMatchObject({ username: 'DJ A' });
  });

  it('refuses a duplicate email whatever its case, with 409', async () => {
    await client(ctx.app).post('/api/auth/register', { email: 'dup@example.test', password });
    const res = await client(ctx.app).post('/api/auth/register', { email: 'DUP@example.test', password });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: MESSAGES.emailTaken, code: 'conflict' });
    const count = await ctx.database.db.execute(sql`select count(*)::int as n from users`);
    expect((count as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(1);
  });

  it.each([
    [{ email: 'not-an-email', password }, MESSAGES.invalidEmail],
    [{ email: 'x@example.test', password: '12345' }, MESSAGES.passwordTooShort],
    [{ email: 'x@example.test', password: 'password' }, MESSAGES.passwordTooCommon],
    [{ password }, MESSAGES.invalidEmail],
    [{ email: 'x@example.test' }, MESSAGES.passwordTooShort],
  ])('rejects a bad registration %j', async (body, message) => {
    const res = await client(ctx.app).post('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message });
  });

  it('logs in with the right password, and rotates the session', async () => {
    const { c: first } = await signedUpClient(ctx.app, 'login@example.test');
    const before = first.token;
    const c = client(ctx.app);
    const res = await c.post('/api/auth/login', { email: 'LOGIN@example.test', password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'login@example.test', username: 'login' });
    expect(c.token).toBeTruthy();
    expect(c.token).not.toBe(before);
    expect((await c.get('/api/auth/user')).status).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    await signedUpClient(ctx.app, 'known@example.test');
    const wrong = await client(ctx.app).post('/api/auth/login', {
      email: 'known@example.test',
      password: 'nope-nope',
    });
    const unknown = await client(ctx.app).post('/api/auth/login', {
      email: 'ghost@example.test',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ message: MESSAGES.invalidCredentials });
  });

  it('asks for both fields at login', async () => {
    const res = await client(ctx.app).post('/api/auth/login', { email: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MESSAGES.loginMissing });
  });

  it('answers 401 without a session, and with a made-up token', async () => {
    expect((await client(ctx.app).get('/api/auth/user')).status).toBe(401);
    const c = client(ctx.app);
    c.token = 'x'.repeat(43);
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('accepts the session from the cookie as well as from x-auth-token', async () => {
    const { c } = await signedUpClient(ctx.app);
    const token = c.token!;
    c.token = undefined;
    const res = await c.get('/api/auth/user', { cookie: `theme=dark; sid=${token}` });
    expect(res.status).toBe(200);
  });

  it('logs out by revoking the session on the server and clearing the cookie', async () => {
    const { c } = await signedUpClient(ctx.app);
    const token = c.token;
    const out = await c.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']).toBe(
      'sid=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    );
    c.token = token;
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('expires sessions after their lifetime', async () => {
    const { c } = await signedUpClient(ctx.app);
    await ctx.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('rate limits login attempts per address (429 with Retry-After)', async () => {
    const c = client(ctx.app, '10.9.9.9');
    const statuses: number[] = [];
    for (let i = 0; i < ctx.config.authRateLimit + 1; i++) {
      statuses.push(
        (await c.post('/api/auth/login', { email: `nobody${i}@example.test`, password: 'whatever1' })).status,
      );
    }
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const res = await c.post('/api/auth/login', { email: 'nobody@example.test', password });
    expect(res.body).toMatchObject({ message: MESSAGES.tooManyRequests });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Per-email limits, and who still gets in: login-lockout.test.ts.
  });

  it('makes the emails of ADMIN_EMAILS admins once the address is confirmed', async () => {
    const { c } = await signedUpClient(ctx.app, 'Boss@example.test');
    expect((await c.get('/api/auth/user')).body).toMatchObject({ isAdmin: false, emailVerified: false });
    const token = verificationTokenIn(ctx.mail, 'boss@example.test');
    expect((await c.post('/api/auth/verify-email', { token })).status).toBe(200);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ isAdmin: true, emailVerified: true });
  });

  it('deletes an account only with the typed email, with its sessions', async () => {
    const { c, user } = await signedUpClient(ctx.app, 'leaving@example.test');
    const token = c.token;
    expect((await c.delete('/api/auth/account', { confirm: 'someone@example.test' })).status).toBe(400);
    expect((await c.delete('/api/auth/account', { confirm: 'Leaving@example.test' })).status).toBe(200);
    c.token = token;
    expect((await c.get('/api/auth/user')).status).toBe(401);
    const rows = await ctx.database.db.execute(
      sql`select count(*)::int as n from users where id = ${user.id}`,
    );
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
  });
});
