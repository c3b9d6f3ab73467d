import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { subscribe } from '../modules/billing/billing-test-helpers';
import { multipart, wavBytes } from '../modules/tracks/test-uploads';
import { client, describeEachDatabase, signedUpClient, type TestContext } from '../test/harness';

const TOKEN = 'metrics-token-for-tests-0123456789';
const WEBHOOK_SECRET = 'whsec_metrics_test';

const scrape = async (ctx: TestContext, token: string | null = TOKEN) =>
  ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });

/** The value of one sample line, e.g. `mym_uploads_total` or `x_count{route="/a",status="200"}`. */
const sample = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  for (const line of text.split('\n')) {
    const m = /^([\w:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
};

describeEachDatabase('metrics off', (ctx) => {
  it('answers 404 at /metrics when no METRICS_TOKEN is configured, token or not', async () => {
    expect((await scrape(ctx)).statusCode).toBe(404);
    expect((await scrape(ctx, null)).statusCode).toBe(404);
    expect(ctx.app.metrics).toBeUndefined();
  });
});

describeEachDatabase(
  'metrics',
  (ctx) => {
    it('refuses a scrape without the token or with a wrong one (401), and serves Prometheus text with it', async () => {
      const none = await scrape(ctx, null);
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(none.json()).toMatchObject({ code: 'unauthorized' });
      expect((await scrape(ctx, `${TOKEN}x`)).statusCode).toBe(401);
      const ok = await scrape(ctx);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toContain('text/plain');
      for (const name of [
        'nodejs_eventloop_lag_seconds',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_eventloop_lag_max_seconds',
        'process_cpu_seconds_total',
      ])
        expect(sample(ok.body, name), name).toBeGreaterThanOrEqual(0);
      expect(sample(ok.body, 'process_resident_memory_bytes')).toBeGreaterThan(1e6);
      expect(sample(ok.body, 'mym_mail_queue_depth')).toBe(0);
    });

    it('counts requests and their latency by route pattern and status, never by raw URL', async () => {
      const anon = client(ctx.app);
      await anon.get('/api/auth/user');
      await anon.get('/api/auth/user');
      const { c } = await signedUpClient(ctx.app);
      await c.get('/api/auth/user');
      await c.get('/api/tracks/999999');
      await anon.get('/api/no/such/route?x=1');
      const text = (await scrape(ctx)).body;
      const count = (route: string, status: string) =>
        sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status });
      expect(count('/api/auth/user', '401')).toBe(2);
      expect(count('/api/auth/user', '200')).toBe(1);
      expect(count('/api/tracks/:id', '404')).toBe(1);
      expect(count('unmatched', '404')).toBe(1);
      expect(text).not.toContain('/api/no/such/route');
      expect(
        sample(text, 'http_request_duration_seconds_bucket', {
          route: '/api/auth/user',
          status: '200',
          le: '+Inf',
        }),
      ).toBe(1);
    });

    it('counts stored upload bytes, spends and refusals by type', async () => {
      const { c } = await signedUpClient(ctx.app);
      const wav = wavBytes({ seconds: 0.25 });
      const { payload, headers } = multipart([
        { name: 'audio', filename: 'take.wav', contentType: 'audio/wav', data: wav },
        { name: 'type', value: 'vocals' },
        { name: 'name', value: 'Take' },
      ]);
      expect((await c.post('/api/tracks', payload, headers)).status).toBe(201);
      // A free user is refused; a subscriber spends.
      expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'metrics-1' })).status).toBe(
        403,
      );
      await subscribe(ctx.app, c, 'pro');
      expect(
        (await c.post('/api/spend-credit', { type: 'mastering', idempotencyKey: 'metrics-2' })).status,
      ).toBe(200);
      expect((await c.post('/api/spend-credit', { type: 'video', idempotencyKey: 'metrics-3' })).status).toBe(
        400,
      );

      const text = (await scrape(ctx)).body;
      expect(sample(text, 'mym_uploads_total')).toBe(1);
      expect(sample(text, 'mym_upload_bytes_total')).toBe(wav.length);
      const spends = (type: string, outcome: string) =>
        sample(text, 'mym_credit_spend_answers_total', { type, outcome });
      expect(spends('mix', 'subscription_required')).toBe(1);
      expect(spends('mastering', 'spent')).toBe(1);
      expect(spends('invalid', 'invalid')).toBe(1);
    });

    it('reports the mail queue depth the queue hands it, read at each scrape', async () => {
      let waiting = 3;
      ctx.app.metrics?.setMailQueueDepthSource(async () => waiting);
      expect(sample((await scrape(ctx)).body, 'mym_mail_queue_depth')).toBe(3);
      waiting = 0;
      expect(sample((await scrape(ctx)).body, 'mym_mail_queue_depth')).toBe(0);
    });
  },
  { env: { METRICS_TOKEN: TOKEN } },
);

describeEachDatabase(
  'metrics of Stripe webhooks',
  (ctx) => {
    it('counts webhook deliveries by outcome', async () => {
      const payload = JSON.stringify({
        id: `evt_metrics_${Date.now()}`,
        object: 'event',
        type: 'customer.created',
        livemode: false,
        created: Math.floor(Date.now() / 1000),
        data: { object: {} },
      });
      const deliver = (signature?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/stripe/webhook',
          headers: {
            'content-type': 'application/json',
            ...(signature ? { 'stripe-signature': signature } : {}),
          },
          payload,
        });
      const signed = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
      });
      expect((await deliver(signed)).statusCode).toBe(200);
      expect((await deliver()).statusCode).toBe(400);
      expect((await deliver('t=1,v1=bad')).statusCode).toBe(400);
      const text = (await scrape(ctx)).body;
      expect(sample(text, 'mym_webhook_answers_total', { provider: 'stripe', outcome: 'ignored' })).toBe(1);
      expect(sample(text, 'mym_webhook_answers_total', { provider: 'stripe', outcome: 'rejected' })).toBe(2);
    });
  },
  {
    env: {
      METRICS_TOKEN: TOKEN,
      STRIPE_SECRET_KEY: 'sk_test_metrics',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  },
);

describeEachDatabase(
  'metrics behind a trusted proxy',
  (ctx) => {
    const get = (url: string, from: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'GET',
        url,
        remoteAddress: from,
        headers: { authorization: `Bearer ${TOKEN}`, ...headers },
      });

    it('answers a scraper connecting directly, even from the proxy host', async () => {
      expect((await get('/metrics', '127.0.0.1')).statusCode).toBe(200);
      expect((await get('/metrics', '10.0.0.9')).statusCode).toBe(200);
    });

    it('refuses (404) a request the proxy forwarded, however the path is spelled', async () => {
      // The proxy's deny rule is one guard; the app is the other: whatever the router maps to /metrics.
      for (const url of ['/metrics', '/%6detrics', '/metric%73', '/./metrics', '/metrics?x=1']) {
        for (const headers of [
          { 'x-forwarded-for': '203.0.113.9' } as Record<string, string>,
          { forwarded: 'for=203.0.113.9;proto=https' },
        ]) {
          const res = await get(url, '127.0.0.1', headers);
          expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(404);
          expect(res.json()).toEqual({ message: 'Not found', code: 'not_found' });
        }
      }
    });
  },
  { env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: '127.0.0.1' } },
);
