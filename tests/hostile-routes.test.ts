import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { multipart, wavBytes } from '../src/server/modules/tracks/test-uploads';
import { client, describeEachDatabase, enableTwoFactor, signedUpClient } from '../src/server/test/harness';
import { bodyFor, injectBody, weirdString } from '../src/server/test/hostile-bodies';
import { heldUpload } from './helpers/http-flows';

/**
 * Hostile input over the routes of tracks, mixer sessions, billing, two-factor and admin (the core auth and
 * contact routes have their own property test in src/server/http/hostile-input.test.ts): never a 5xx,
 * always a readable message, nothing changed. Then IDOR on every id-bearing route, admin routes as a
 * non-admin, the developer bypass with developer mode off, output that must never become markup, and the
 * upload guards (parallel uploads, slow-loris) over real HTTP.
 */
type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; fields: string[] };
const BODY_ROUTES: Route[] = [
  {
    method: 'POST',
    url: '/api/sessions',
    fields: [
      'name',
      'vocalTrackId',
      'instrumentalTrackId',
      'clips',
      'style',
      'outputVolume',
      'vocalDuration',
    ],
  },
  { method: 'PUT', url: '/api/sessions/1', fields: ['name', 'clips', 'outputVolume'] },
  { method: 'POST', url: '/api/spend-credit', fields: ['type', 'idempotencyKey'] },
  { method: 'POST', url: '/api/purchase-crowns', fields: ['amount'] },
  { method: 'POST', url: '/api/create-checkout-session', fields: ['lookup_key'] },
  { method: 'POST', url: '/api/auth/change-subscription', fields: ['type', 'plan'] },
  { method: 'POST', url: '/api/admin/billing/advance-cycle', fields: ['userId'] },
  { method: 'POST', url: '/api/auth/2fa/enable', fields: ['code'] },
  { method: 'POST', url: '/api/auth/2fa/disable', fields: ['code', 'password', 'recoveryCode'] },
  { method: 'POST', url: '/api/auth/verify-email', fields: ['token'] },
  // A random body never holds the right password, so the change is always refused.
  { method: 'POST', url: '/api/auth/email-change', fields: ['newEmail', 'password'] },
];
/** Routes whose path or query carries user input. */
const PATH_ROUTES = [
  (id: string) => ({ method: 'GET' as const, url: `/api/tracks/${id}` }),
  (id: string) => ({ method: 'GET' as const, url: `/api/tracks/${id}/audio` }),
  (id: string) => ({ method: 'DELETE' as const, url: `/api/tracks/${id}` }),
  (id: string) => ({ method: 'GET' as const, url: `/api/sessions/${id}` }),
  (id: string) => ({ method: 'DELETE' as const, url: `/api/sessions/${id}` }),
  (id: string) => ({ method: 'DELETE' as const, url: `/api/auth/sessions/${id}` }),
  (q: string) => ({ method: 'GET' as const, url: `/api/tracks?limit=${q}&before=${q}` }),
  (q: string) => ({ method: 'GET' as const, url: `/api/sessions?limit=${q}&before=${q}` }),
];

const pathSegment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999999999999', '%00', '%2e%2e', 'NaN', '0x10', ' 1'),
  fc.integer().map(String),
);

describeEachDatabase('hostile input on every module', (ctx) => {
  /** What must not change under refused requests: rows that hold a user's work or money. */
  const snapshot = async () => {
    const res = (await ctx.database.db.execute(sql`
      select (select count(*) from tracks)::int as tracks, (select count(*) from mixer_sessions)::int as sessions,
             (select count(*) from credit_ledger)::int as ledger, (select count(*) from payments)::int as payments,
             (select coalesce(sum(mix_credits + mastering_credits + crowns), 0) from users)::int as balances,
             (select count(*) from users where is_admin)::int as admins,
             (select count(*) from users where email_verified_at is not null)::int as verified`)) as unknown as {
      rows?: unknown[];
    } & unknown[];
    return (res.rows ?? res)[0];
  };

  for (const route of BODY_ROUTES) {
    it(`${route.method} ${route.url}: random and boundary bodies give a 4xx message, never 5xx, and change nothing`, async () => {
      const { c } = await signedUpClient(ctx.app);
      // Turning two-factor off needs it on first; otherwise an empty body is a harmless success.
      if (route.url === '/api/auth/2fa/disable') await enableTwoFactor(c);
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(bodyFor(route.fields), async (body) => {
          const res = await injectBody(ctx.app, route, body, '10.88', { 'x-auth-token': c.token! });
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
          expect(typeof res.json().message).toBe('string');
        }),
        { numRuns: 40 },
      );
      expect(await snapshot()).toEqual(before);
    }, 120_000);
  }

  it('ids and queries in paths: any value gives a 4xx message, never 5xx', async () => {
    const { c } = await signedUpClient(ctx.app);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATH_ROUTES), pathSegment, async (route, seg) => {
        const { method, url } = route(seg);
        const res = await ctx.app.inject({ method, url, headers: { 'x-auth-token': c.token! } });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('multipart uploads with hostile field values and names are refused with 4xx and leave nothing', async () => {
    const { c } = await signedUpClient(ctx.app);
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        weirdString,
        fc.constantFrom('name', 'type', 'duration', 'audio', 'x'),
        async (value, field) => {
          const form = multipart([
            { name: field, value: value.slice(0, 5000) },
            { name: 'type', value: 'not-a-type' },
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 0.05 }) },
          ]);
          const res = await ctx.app.inject({
            method: 'POST',
            url: '/api/tracks',
            headers: { ...form.headers, 'x-auth-token': c.token! },
            payload: form.payload,
          });
          expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
      ),
      { numRuns: 30 },
    );
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('a polyglot (WAV header with HTML after it, declared text/html) is stored as audio at most, never served as HTML', async () => {
    const { c } = await signedUpClient(ctx.app);
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const wav = wavBytes({ seconds: 0.05 });
    const form = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: '<script>alert(1)</script>' },
      { name: 'audio', filename: 'x.html', contentType: 'text/html', data: Buffer.concat([wav, html]) },
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/tracks',
      headers: { ...form.headers, 'x-auth-token': c.token! },
      payload: form.payload,
    });
    if (res.statusCode === 201) {
      const { id, contentType } = res.json() as { id: number; contentType: string };
      expect(contentType).toBe('audio/wav');
      const audio = await ctx.app.inject({
        method: 'GET',
        url: `/api/tracks/${id}/audio`,
        headers: { 'x-auth-token': c.token! },
      });
      expect(audio.headers['content-type']).toBe('audio/wav');
      expect(audio.headers['x-content-type-options']).toBe('nosniff');
      expect(audio.headers['content-security-policy']).toContain('sandbox');
      expect(String(audio.headers['content-disposition'])).not.toMatch(/[<>]/);
      expect(String(audio.headers['content-disposition'])).toMatch(/filename="scriptalert1script\.wav"/);
    } else {
      expect(res.statusCode).toBe(400);
    }
    // Declared audio, actually HTML: refused by its bytes.
    const liar = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'liar' },
      { name: 'audio', filename: 'x.wav', contentType: 'audio/wav', data: html },
    ]);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/tracks',
      headers: { ...liar.headers, 'x-auth-token': c.token! },
      payload: liar.payload,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('IDOR: every id-bearing route answers 404 for another user’s track and session, and changes nothing', async () => {
    const owner = await signedUpClient(ctx.app);
    const form = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'mine' },
      { name: 'audio', filename: 'm.wav', contentType: 'audio/wav', data: wavBytes() },
    ]);
    const up = await ctx.app.inject({
      method: 'POST',
      url: '/api/tracks',
      headers: { ...form.headers, 'x-auth-token': owner.c.token! },
      payload: form.payload,
    });
    const trackId = (up.json() as { id: number }).id;
    const session = await owner.c.post('/api/sessions', { name: 'private', vocalTrackId: trackId });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const sessionId = (session.body as { id: number }).id;
    const before = await snapshot();

    const { c: thief } = await signedUpClient(ctx.app);
    const attempts = [
      await thief.get(`/api/tracks/${trackId}`),
      await thief.get(`/api/tracks/${trackId}/audio`),
      await thief.delete(`/api/tracks/${trackId}`),
      await thief.get(`/api/sessions/${sessionId}`),
      await thief.put(`/api/sessions/${sessionId}`, { name: 'stolen' }),
      await thief.delete(`/api/sessions/${sessionId}`),
    ];
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    // Someone else's track cannot be attached to one's own session either, and the refusal is the one a
    // track that does not exist gets (ids cannot be probed).
    const borrow = await thief.post('/api/sessions', { name: 'borrowed', vocalTrackId: trackId });
    const missing = await thief.post('/api/sessions', { name: 'borrowed', vocalTrackId: trackId + 1000 });
    expect(borrow.status).toBeGreaterThanOrEqual(400);
    expect({ status: borrow.status, body: borrow.body }).toEqual({
      status: missing.status,
      body: missing.body,
    });
    expect((await thief.get('/api/tracks')).body).toMatchObject({ tracks: [] });
    expect(await snapshot()).toEqual(before);
    expect((await owner.c.get(`/api/sessions/${sessionId}`)).body).toMatchObject({ name: 'private' });
  });

  it('admin routes answer 403 to a signed-in non-admin and 401 to nobody', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    expect((await c.get('/api/admin/stats')).status).toBe(403);
    expect((await c.post('/api/admin/billing/advance-cycle', { userId: user.id })).status).toBe(403);
    const anon = client(ctx.app);
    expect((await anon.get('/api/admin/stats')).status).toBe(401);
    expect((await anon.post('/api/admin/billing/advance-cycle', { userId: user.id })).status).toBe(401);
  });

  it('the developer bypass, with developer mode off, unlocks nothing on any route', async () => {
    const { c } = await signedUpClient(ctx.app);
    const bypassHeaders = {
      'x-dev-bypass': 'true',
      'x-developer-mode': 'true',
      cookie: 'devBypass=true; devMode=true',
    };
    expect((await c.post('/api/dev/bypass', { secret: 'any secret at all here' })).status).toBe(404);
    expect((await c.get('/api/config')).body).toMatchObject({ devMode: false });
    const anon = client(ctx.app);
    for (const url of ['/api/auth/user', '/api/tracks', '/api/sessions', '/api/billing/payment-methods'])
      expect((await anon.get(url, bypassHeaders)).status, url).toBe(401);
    expect((await c.get('/api/admin/stats', bypassHeaders)).status).toBe(403);
    const spend = await c.post(
      '/api/spend-credit',
      { type: 'mastering', idempotencyKey: 'bypass-attempt' },
      bypassHeaders,
    );
    expect(spend.status).toBe(403);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ hasSubscription: false, crowns: 0 });
  });

  it('names with markup come back as JSON text, never as HTML', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const { c } = await signedUpClient(ctx.app);
    const reg = await client(ctx.app, '10.9.9.9').post('/api/auth/register', {
      email: 'markup@example.test',
      username: evil,
      password: 'correct horse battery',
    });
    const answers = [
      reg,
      await c.post('/api/sessions', { name: evil }),
      await c.post('/api/contact', {
        name: evil,
        email: 'a@example.test',
        subject: evil,
        message: `${evil} hello there`,
      }),
    ];
    for (const res of answers) {
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // An API answer could not run anything even if a browser were talked into rendering it.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    if (reg.status === 201) expect((reg.body as { username: string }).username).toBe(evil);
    // Pages forbid inline script whatever a name contains.
    const csp = String((await c.get('/pricing')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(/script-src[^;]*'unsafe-inline'/.test(csp)).toBe(false);
  });

  it('answers unknown and known emails at login alike, in similar time (measured)', async () => {
    await signedUpClient(ctx.app, 'known@example.test');
    const time = async (email: string) => {
      const t = performance.now();
      const res = await client(ctx.app, `10.5.${Math.floor(Math.random() * 250)}.1`).post('/api/auth/login', {
        email,
        password: 'wrong password here',
      });
      return { ms: performance.now() - t, status: res.status, body: res.body };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    let kb: unknown;
    let ub: unknown;
    // 8 rounds: below the per-email failed-login limit (10 in 15 minutes).
    for (let i = 0; i < 8; i++) {
      const k = await time('known@example.test');
      const u = await time(`nobody${i}@example.test`);
      known.push(k.ms);
      unknown.push(u.ms);
      kb = { status: k.status, body: k.body };
      ub = { status: u.status, body: u.body };
    }
    expect(kb).toEqual(ub);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    console.log(
      `login timing: known email median ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`,
    );
    // Both pay one password hash: the medians stay within a factor of 3 (a missing hash would be ~100× with
    // production parameters); a wide band, since these machines are shared and noisy.
    expect(median(unknown) / median(known)).toBeGreaterThan(1 / 3);
    expect(median(unknown) / median(known)).toBeLessThan(3);
  });
});

describeEachDatabase(
  'upload guards over real HTTP',
  (ctx) => {
    const listen = async () => {
      if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    };
    const form = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'guarded' },
      { name: 'audio', filename: 'g.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 1 }) },
    ]);
    const rows = async () =>
      (await ctx.database.db.execute(sql`select count(*)::int as n from tracks`)) as unknown as {
        rows?: Array<{ n: number }>;
      } & Array<{ n: number }>;

    it('cuts off a client that trickles its upload (slow-loris) and stores nothing', async () => {
      const origin = await listen();
      const { c } = await signedUpClient(ctx.app);
      const started = Date.now();
      const slow = heldUpload(origin, c.token!, form.payload, form.headers, 300);
      let offset = 300;
      const drip = setInterval(() => slow.trickle(offset++), 250);
      const outcome = await slow.response;
      clearInterval(drip);
      const seconds = (Date.now() - started) / 1000;
      // Window 2 s at 2048 B/s minimum: cut within a few seconds, not after the body's natural end.
      expect('error' in outcome || (outcome as { status: number }).status >= 400).toBe(true);
      expect(seconds).toBeLessThan(10);
      const r = await rows();
      expect((r.rows ?? r)[0]!.n).toBe(0);
    }, 30_000);

    it('limits parallel uploads of one user (3), and frees the slot when one ends', async () => {
      const origin = await listen();
      const { c } = await signedUpClient(ctx.app);
      const held = [0, 1, 2].map(() => heldUpload(origin, c.token!, form.payload, form.headers, 2048));
      await new Promise((r) => setTimeout(r, 300));
      const fourth = heldUpload(origin, c.token!, form.payload, form.headers, 0);
      const refused = await fourth.finish();
      expect(refused).toMatchObject({ status: 429 });
      // Another user is not affected.
      const other = await signedUpClient(ctx.app);
      expect(await heldUpload(origin, other.c.token!, form.payload, form.headers, 0).finish()).toMatchObject({
        status: 201,
      });
      held[0]!.abort();
      await new Promise((r) => setTimeout(r, 300));
      expect(await heldUpload(origin, c.token!, form.payload, form.headers, 0).finish()).toMatchObject({
        status: 201,
      });
      for (const h of held.slice(1)) expect(await h.finish()).toMatchObject({ status: 201 });
    }, 30_000);
  },
  {
    env: {
      UPLOAD_RATE_WINDOW_SECONDS: '2',
      UPLOAD_MIN_BYTES_PER_SECOND: '2048',
      DATA_DIR: `.data-test/hostile-${process.pid}`,
    },
  },
);
