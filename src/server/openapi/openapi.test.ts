import { expect, it } from 'vitest';
import { publicConfig } from '../../shared/api/config';
import { publicUser } from '../../shared/api/user';
import { buildApp } from '../app';
import { memoryRateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';
import { describeEachDatabase, memoryMailer, signedUpClient, testConfig } from '../test/harness';
import { registeredRoutes } from './api-docs';
import { OPERATIONS } from './operations';

type Doc = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const key = (method: string, url: string) => `${method.toLowerCase()} ${url.replace(/:(\w+)/g, '{$1}')}`;
const documented = (doc: Doc) =>
  new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)));

describeEachDatabase('OpenAPI document', (ctx) => {
  it('lists every registered route, with the local provider and with Stripe, and nothing that is not one', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const doc = res.json() as Doc;
    expect(doc.openapi).toBe('3.1.0');
    const inDoc = documented(doc);

    // The billing module registers Stripe's webhook or the local provider's pages, never both.
    const stripeApp = await buildApp({
      config: testConfig({ STRIPE_SECRET_KEY: 'sk_test_openapi', STRIPE_WEBHOOK_SECRET: 'whsec_openapi' }),
      database: ctx.database,
      mailer: memoryMailer(),
      limiter: memoryRateLimiter(),
      hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
      logger: false,
    });
    try {
      const registered = new Set<string>();
      for (const app of [ctx.app, stripeApp]) {
        const routes = registeredRoutes(app).map((r) => key(r.method, r.url));
        expect(routes.length).toBeGreaterThan(30);
        expect(routes.filter((r) => !inDoc.has(r))).toEqual([]);
        for (const r of routes) registered.add(r);
      }
      expect([...inDoc].filter((d) => !registered.has(d))).toEqual([]);
    } finally {
      await stripeApp.close();
    }
  });

  it("has every route of the spec's section 7", async () => {
    const inDoc = documented((await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
    const section7 = [
      'get /api/auth/user',
      'post /api/auth/login',
      'post /api/auth/register',
      'post /api/auth/logout',
      'post /api/auth/forgot-password',
      'post /api/auth/reset-password',
      'post /api/auth/change-subscription',
      'post /api/spend-credit',
      'get /api/tracks/{id}',
      'post /api/tracks',
      'get /api/admin/stats',
      'post /api/contact',
      'post /api/purchase-crowns',
      'post /api/create-checkout-session',
    ];
    expect(section7.filter((r) => !inDoc.has(r))).toEqual([]);
  });

  it('has examples that validate against the shared schemas they illustrate', () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      const where = `${op.method} ${op.path}`;
      if (op.example?.request !== undefined) {
        expect(op.body, `${where}: an example needs a schema`).toBeDefined();
        const parsed = op.body!.safeParse(op.example.request);
        expect(parsed.success, `${where} request: ${parsed.error?.message}`).toBe(true);
        checked++;
      }
      if (op.example?.response !== undefined) {
        expect(op.response, `${where}: an example needs a schema`).toBeDefined();
        const parsed = op.response!.safeParse(op.example.response);
        expect(parsed.success, `${where} response: ${parsed.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('describes what the server really answers', async () => {
    const config = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(publicConfig.strict().safeParse(config.json()).success).toBe(true);
    const { c } = await signedUpClient(ctx.app);
    const me = await c.get('/api/auth/user');
    expect(publicUser.strict().safeParse(me.body).error).toBeUndefined();
  });
});
