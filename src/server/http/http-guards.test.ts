import { expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { describeEachDatabase, signedUpClient } from '../test/harness';

describeEachDatabase('http guards', (ctx) => {
  it('sends pages security headers: CSP without inline script, nosniff, no framing, cross-origin isolation', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/pricing' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends API answers, refusals and errors included, headers that let nothing in them run or be framed', async () => {
    const answers = await Promise.all([
      ctx.app.inject({ method: 'GET', url: '/api/health' }),
      ctx.app.inject({ method: 'GET', url: '/api/auth/user' }),
      ctx.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: 'sid=x', origin: 'https://evil.example' },
      }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 400, 403]);
    for (const a of answers) {
      expect(a.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['x-frame-options']).toBe('DENY');
      expect(a.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('refuses state-changing cookie requests from another site', async () => {
    const { c } = await signedUpClient(ctx.app);
    const cookie = `sid=${c.token}`;
    const evil = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({ message: MESSAGES.crossSite });
    const fetchMeta = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchMeta.statusCode).toBe(403);
    // The session survived both attempts.
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const own = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://app.test', 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('has no text/plain body parser (no CORS-simple form posts)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ email: 'a@example.test', password: 'x' }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toHaveProperty('message');
  });

  it('answers malformed JSON with a 400 message and unknown API paths with a JSON 404', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('message');
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('answers a JSON body over 1 MB with its own message, not the audio file one', async () => {
    const { c } = await signedUpClient(ctx.app);
    const res = await c.post('/api/sessions', { name: 'x'.repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      message: 'This request is too large. Please send less data (this request is limited to 1 MB).',
      code: 'body_too_large',
    });
    expect((await c.get('/api/sessions')).body).toMatchObject({ sessions: [] });
  });

  it('publishes only the whitelisted config', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({
      devMode: false,
      paymentProvider: 'local',
      demoPayments: false,
      maxUploadBytes: 100 * 1024 * 1024,
    });
  });

  it('has no developer bypass when developer mode is off', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/bypass',
      payload: { secret: 'anything-at-all' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describeEachDatabase(
  'developer mode',
  (ctx) => {
    it('checks the bypass secret exactly', async () => {
      const ok = await ctx.app.inject({
        method: 'POST',
        url: '/api/dev/bypass',
        payload: { secret: 'the-dev-secret-123' },
      });
      expect(ok.statusCode).toBe(200);
      const wrong = await ctx.app.inject({
        method: 'POST',
        url: '/api/dev/bypass',
        payload: { secret: 'the-dev-secret-124' },
      });
      expect(wrong.statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
        devMode: true,
      });
    });

    it('never trusts the bypass flag for identity', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: { cookie: 'authBypass=true', 'x-auth-bypass': 'true' },
      });
      expect(res.statusCode).toBe(401);
    });
  },
  { env: { DEV_MODE: 'true', DEV_BYPASS_SECRET: 'the-dev-secret-123' } },
);
