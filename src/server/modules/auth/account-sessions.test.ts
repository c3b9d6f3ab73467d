import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import type { AccountSession, AccountSessionsResponse } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { hashToken } from '../../security/tokens';
import { client, describeEachDatabase, enableTwoFactor, signedUpClient } from '../../test/harness';
import { SESSIONS_PER_USER } from './session-service';

const PASSWORD = 'correct horse battery';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describeEachDatabase('account sessions', (ctx) => {
  type Client = ReturnType<typeof client>;
  const signIn = async (
    email: string,
    ip = '10.2.0.1',
    userAgent = CHROME_WINDOWS,
    cookie?: string,
  ): Promise<Client> => {
    const c = client(ctx.app, ip);
    const headers = { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) };
    const res = await c.post('/api/auth/login', { email, password: PASSWORD }, headers);
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return c;
  };
  const signedIn = async (c: Client) => (await c.get('/api/auth/user')).status === 200;
  const listOf = async (c: Client) => {
    const res = await c.get('/api/auth/sessions');
    expect(res.status).toBe(200);
    return res.body as AccountSessionsResponse;
  };
  const liveRows = async (email: string) =>
    rowsOf<{ n: number }>(
      await ctx.database.db.execute(
        sql`select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`,
      ),
    )[0]!.n;

  it(`keeps at most ${SESSIONS_PER_USER} sessions per account, ending the one unused longest`, async () => {
    await signedUpClient(ctx.app, 'many@example.test');
    // Issue 29: 120 sign-ins left 121 live sessions. From browsers that signed in before (their device
    // cookie), as someone's own devices would, so the login limits for strangers do not count them.
    const first = await client(ctx.app).post('/api/auth/login', {
      email: 'many@example.test',
      password: PASSWORD,
    });
    const device = String(first.headers['set-cookie']).match(/device=[^;]+/)?.[0];
    expect(device).toBeDefined();
    const clients: Client[] = [];
    for (let i = 0; i < 120; i++)
      clients.push(await signIn('many@example.test', `10.3.${i >> 8}.${i & 255}`, CHROME_WINDOWS, device));
    expect(await liveRows('many@example.test')).toBe(SESSIONS_PER_USER);
    const alive = await Promise.all(clients.map(signedIn));
    expect(alive.slice(0, 120 - SESSIONS_PER_USER).every((a) => !a)).toBe(true);
    expect(alive.slice(120 - SESSIONS_PER_USER).every(Boolean)).toBe(true);

    // Use decides, not age: the oldest of the ten, used a moment ago, outlives one left idle.
    const [oldest, idle] = clients.slice(120 - SESSIONS_PER_USER);
    await ctx.database.db.execute(sql`update sessions set last_seen_at = now() - interval '1 hour'`);
    await ctx.database.db.execute(
      sql`update sessions set last_seen_at = now() where id_hash = (select id_hash from sessions order by created_at limit 1)`,
    );
    await signIn('many@example.test');
    expect(await signedIn(oldest!)).toBe(true);
    expect(await signedIn(idle!)).toBe(false);
    expect(await liveRows('many@example.test')).toBe(SESSIONS_PER_USER);
  });

  it('a login from a browser already signed in takes its own old session, not another device', async () => {
    const { c: browser } = await signedUpClient(ctx.app, 'relogin@example.test');
    const devices: Client[] = [];
    for (let i = 1; i < SESSIONS_PER_USER; i++)
      devices.push(await signIn('relogin@example.test', `10.5.0.${i}`));
    expect(await liveRows('relogin@example.test')).toBe(SESSIONS_PER_USER);
    // The browser is the one in use; the other devices have been idle an hour (the first of the cap to go).
    await ctx.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '1 hour' where id_hash <> ${hashToken(browser.token!)}`,
    );
    const before = browser.token;
    expect(
      (await browser.post('/api/auth/login', { email: 'relogin@example.test', password: PASSWORD })).status,
    ).toBe(200);
    expect(browser.token).not.toBe(before);
    expect(await liveRows('relogin@example.test')).toBe(SESSIONS_PER_USER);
    expect((await Promise.all(devices.map(signedIn))).every(Boolean)).toBe(true);
    const stale = client(ctx.app);
    stale.token = before;
    expect(await signedIn(stale)).toBe(false);
  });

  it('holds the cap under twenty sign-ins at once', async () => {
    await signedUpClient(ctx.app, 'burst@example.test');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client(ctx.app, `10.4.0.${i + 1}`).post('/api/auth/login', {
          email: 'burst@example.test',
          password: PASSWORD,
        }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await liveRows('burst@example.test')).toBe(SESSIONS_PER_USER);
  });

  it('lists the live sessions: device, address as recorded, last seen, the current one first and marked', async () => {
    const { c: first } = await signedUpClient(ctx.app, 'list@example.test');
    const phone = await signIn('list@example.test', '198.51.100.23', SAFARI_IPHONE);
    const laptop = await signIn('list@example.test', '203.0.113.7', CHROME_WINDOWS);
    const { sessions, limit } = await listOf(laptop);
    expect(limit).toBe(SESSIONS_PER_USER);
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ current: true, device: 'Chrome on Windows', address: '203.0.113.7' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.device === 'Safari on iPhone')).toMatchObject({
      current: false,
      address: '198.51.100.23',
    });
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    }
    // Nothing of the token is in the list.
    expect(JSON.stringify(sessions)).not.toContain(laptop.token!);
    expect((await listOf(phone)).sessions[0]).toMatchObject({ current: true, device: 'Safari on iPhone' });
    expect((await listOf(first)).sessions).toHaveLength(3);
    expect((await client(ctx.app).get('/api/auth/sessions')).status).toBe(401);
  });

  it('refreshes "last seen" and the address at most every few minutes, as the session is used', async () => {
    const { c } = await signedUpClient(ctx.app, 'seen@example.test');
    const [before] = (await listOf(c)).sessions;
    await ctx.database.db.execute(sql`update sessions set last_seen_at = now() - interval '1 hour'`);
    const moved = client(ctx.app, '192.0.2.99');
    moved.token = c.token;
    expect((await moved.get('/api/auth/user')).status).toBe(200);
    await vi.waitFor(async () => {
      const [now] = (await listOf(moved)).sessions as [AccountSession];
      expect(now.address).toBe('192.0.2.99');
      expect(Date.now() - Date.parse(now.lastSeenAt)).toBeLessThan(60_000);
    });
    // Fresh already: the next request writes nothing.
    await ctx.database.db.execute(sql`update sessions set address = 'unchanged'`);
    expect((await c.get('/api/auth/user')).status).toBe(200);
    expect((await listOf(c)).sessions[0]).toMatchObject({ id: before!.id, address: 'unchanged' });
  });

  it('signs one session out by its id; another account cannot, and a made-up id is refused', async () => {
    const { c: laptop } = await signedUpClient(ctx.app, 'owner@example.test');
    const phone = await signIn('owner@example.test', '198.51.100.23', SAFARI_IPHONE);
    const { c: stranger } = await signedUpClient(ctx.app, 'stranger@example.test');
    const phoneId = (await listOf(phone)).sessions.find((s) => s.current)!.id;

    const foreign = await stranger.delete(`/api/auth/sessions/${phoneId}`);
    expect(foreign.status).toBe(404);
    expect(await signedIn(phone)).toBe(true);
    expect((await laptop.delete('/api/auth/sessions/not-a-session')).status).toBe(400);

    const res = await laptop.delete(`/api/auth/sessions/${phoneId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.sessionEnded });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    expect((await laptop.delete(`/api/auth/sessions/${phoneId}`)).status).toBe(404);
    expect((await listOf(laptop)).sessions).toHaveLength(1);
  });

  it('signing out the current session by its id clears its cookie too', async () => {
    const { c } = await signedUpClient(ctx.app, 'self@example.test');
    const id = (await listOf(c)).sessions[0]!.id;
    const res = await c.delete(`/api/auth/sessions/${id}`);
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;.*Max-Age=0/);
    expect(await signedIn(c)).toBe(false);
  });

  it('logout ends this session only, and {all: true} every session of the account', async () => {
    const { c: laptop } = await signedUpClient(ctx.app, 'everywhere@example.test');
    const phone = await signIn('everywhere@example.test');
    const tablet = await signIn('everywhere@example.test');
    const { c: other } = await signedUpClient(ctx.app, 'bystander@example.test');

    expect((await tablet.post('/api/auth/logout')).status).toBe(200);
    expect(await signedIn(tablet)).toBe(false);
    expect(await signedIn(phone)).toBe(true);

    const all = await phone.post('/api/auth/logout', { all: true });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ message: MESSAGES.sessionsEnded });
    expect(String(all.headers['set-cookie'])).toMatch(/^sid=;/);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(false);
    expect(await liveRows('everywhere@example.test')).toBe(0);
    expect(await signedIn(other)).toBe(true);
    expect((await client(ctx.app).post('/api/auth/logout', { all: true })).status).toBe(200);
    expect((await other.post('/api/auth/logout', { all: 'yes' })).status).toBe(400);
    expect(await signedIn(other)).toBe(true);
  });

  it('turning two-factor authentication on or off ends every other session', async () => {
    const { c: laptop } = await signedUpClient(ctx.app, 'tfa@example.test');
    const phone = await signIn('tfa@example.test');
    const { code, recoveryCodes } = await enableTwoFactor(laptop);
    expect(await signedIn(laptop)).toBe(true);
    expect(await signedIn(phone)).toBe(false);

    const again = client(ctx.app, '10.2.0.9');
    const login = await again.post('/api/auth/login', {
      email: 'tfa@example.test',
      password: PASSWORD,
      otp: code(1),
    });
    expect(login.status).toBe(200);
    const off = await laptop.post('/api/auth/2fa/disable', { recoveryCode: recoveryCodes[0] });
    expect(off.status).toBe(200);
    expect(await signedIn(laptop)).toBe(true);
    expect(await signedIn(again)).toBe(false);
  });

  it('a refused code ends nothing', async () => {
    const { c: laptop } = await signedUpClient(ctx.app, 'keep@example.test');
    const phone = await signIn('keep@example.test');
    await laptop.post('/api/auth/2fa/setup');
    expect((await laptop.post('/api/auth/2fa/enable', { code: '000000' })).status).toBe(400);
    expect(await signedIn(phone)).toBe(true);
  });
});
