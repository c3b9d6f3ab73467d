import { eq } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { localCheckoutSessions, payments, users } from '../../db/schema';
import {
  client,
  describeEachDatabase,
  enableTwoFactor,
  signedUpClient,
  verifiedClient,
} from '../../test/harness';
import {
  type Client,
  expectLedgerMatchesBalances,
  FUTURE_EXPIRY,
  me,
  openCheckout,
  postForm,
  subscribe,
} from './billing-test-helpers';
import { TEST_CARD_NUMBERS } from './test-cards';

describeEachDatabase('billing rules (local provider)', (ctx) => {
  const checked: number[] = [];
  afterEach(async () => {
    // Whatever a test did, every user's ledger still sums to their balances.
    for (const id of checked.splice(0)) await expectLedgerMatchesBalances(ctx.database.db, id);
  });
  const user = async (email?: string) => {
    const s = await signedUpClient(ctx.app, email);
    checked.push(s.user.id);
    return s;
  };
  // The dashboard's admin (ADMIN_EMAILS in the test config) with two-factor on, as admin calls require.
  let adminClient: Client | undefined;
  afterEach(() => {
    adminClient = undefined;
  });
  const admin = async () => {
    if (!adminClient) {
      const { c } = await verifiedClient(ctx, 'boss@example.test');
      await enableTwoFactor(c);
      adminClient = c;
    }
    return adminClient;
  };
  const advance = async (userId: number) => {
    const res = await (await admin()).post('/api/admin/billing/advance-cycle', { userId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { message: string };
  };
  const spend = (c: Client, type: 'mix' | 'mastering', key: string = crypto.randomUUID()) =>
    c.post('/api/spend-credit', { type, idempotencyKey: key });
  const paymentsOf = (userId: number) =>
    ctx.database.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.id);

  it('refuses a trial user: no download, no crowns, no change', async () => {
    const { c } = await user();
    const res = await spend(c, 'mastering');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: BILLING_MESSAGES.subscriptionRequiredMastering });
    expect((await spend(c, 'mix')).body).toMatchObject({ message: BILLING_MESSAGES.subscriptionRequiredMix });
    const buy = await c.post('/api/purchase-crowns', { amount: 10 });
    expect(buy.status).toBe(403);
    expect(buy.body).toMatchObject({ message: BILLING_MESSAGES.crownsNeedSubscription });
    const change = await c.post('/api/auth/change-subscription', { type: 'cancel' });
    expect(change.status).toBe(409);
    expect(await me(c)).toMatchObject({
      hasSubscription: false,
      mixCredits: 0,
      masteringCredits: 0,
      crowns: 0,
    });
  });

  it('signed-out callers get 401 from every billing call', async () => {
    const anon = client(ctx.app);
    for (const [url, body] of [
      ['/api/spend-credit', { type: 'mix', idempotencyKey: 'abcdefgh' }],
      ['/api/purchase-crowns', { amount: 1 }],
      ['/api/create-checkout-session', { lookup_key: 'pro_plan' }],
      ['/api/auth/change-subscription', { type: 'cancel' }],
    ] as const) {
      expect((await anon.post(url, body)).status).toBe(401);
    }
    expect((await anon.get('/api/billing/payment-methods')).status).toBe(401);
  });

  it('subscribes to Pro with the success card: 10 + 10 credits, $9.99 paid, card saved', async () => {
    const { c, user: u } = await user();
    expect((await c.get('/api/billing/payment-methods')).body).toEqual({ methods: [] });
    const path = await openCheckout(c, 'pro');
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    // The hosted page passes the app's CSP: no script of any kind, a plain form posting to this app.
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script|onclick=|onsubmit=|javascript:/i);
    expect(page.body).toContain(`action="${path}"`);
    expect(page.body).toContain('Pay $9.99');
    const res = await postForm(ctx.app, path, {
      number: '4242 4242 4242 4242',
      expiry: FUTURE_EXPIRY,
      cvc: '123',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings?checkout=success');
    expect(await me(c)).toMatchObject({
      hasSubscription: true,
      subscriptionType: 'pro',
      mixCredits: 10,
      masteringCredits: 10,
      crowns: 0,
    });
    expect((await paymentsOf(u.id)).map((p) => [p.kind, p.amountCents])).toEqual([
      ['subscription_create', 999],
    ]);
    const methods = (await c.get('/api/billing/payment-methods')).body as { methods: unknown[] };
    expect(methods).toEqual({
      methods: [{ brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) }],
    });
    // Posting the same page again (double click, back button) grants nothing more.
    await postForm(ctx.app, path, { number: TEST_CARD_NUMBERS.success, expiry: FUTURE_EXPIRY, cvc: '123' });
    expect(await me(c)).toMatchObject({ mixCredits: 10, masteringCredits: 10 });
    // A second checkout is refused while subscribed.
    expect((await c.post('/api/create-checkout-session', { lookup_key: 'unlimited_plan' })).status).toBe(409);
  });

  it('declines the decline card with a clear message and leaves the user on the trial', async () => {
    const { c } = await user();
    const path = await openCheckout(c, 'pro');
    const res = await postForm(ctx.app, path, {
      number: TEST_CARD_NUMBERS.decline,
      expiry: FUTURE_EXPIRY,
      cvc: '1',
    });
    expect(res.status).toBe(402);
    expect(res.body).toContain(BILLING_MESSAGES.cvcIncorrect.replace(/'/g, '&#39;'));
    const declined = await postForm(ctx.app, path, {
      number: TEST_CARD_NUMBERS.decline,
      expiry: FUTURE_EXPIRY,
      cvc: '123',
    });
    expect(declined.status).toBe(402);
    expect(declined.body).toContain(BILLING_MESSAGES.cardDeclined);
    expect(declined.body).toContain('role="alert"');
    for (const [number, expiry, message] of [
      ['4242424242424241', FUTURE_EXPIRY, BILLING_MESSAGES.cardNumberIncorrect],
      [TEST_CARD_NUMBERS.success, '01/20', BILLING_MESSAGES.cardExpired],
      ['5555555555554444', FUTURE_EXPIRY, BILLING_MESSAGES.nonTestCard],
    ]) {
      const r = await postForm(ctx.app, path, { number: number!, expiry: expiry!, cvc: '123' });
      expect(r.status).toBe(402);
      expect(r.body).toContain(message!.replace(/'/g, '&#39;'));
    }
    expect(await me(c)).toMatchObject({ hasSubscription: false, subscriptionType: null, mixCredits: 0 });
    expect((await c.get('/api/billing/payment-methods')).body).toEqual({ methods: [] });
  });

  it('asks for a 3-D Secure confirmation: failing it declines, completing it subscribes', async () => {
    const { c } = await user();
    const path = await openCheckout(c, 'unlimited');
    const card = { number: TEST_CARD_NUMBERS.threeDSecure, expiry: FUTURE_EXPIRY, cvc: '123' };
    const first = await postForm(ctx.app, path, card);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${path}/authenticate`);
    const step = await ctx.app.inject({ method: 'GET', url: `${path}/authenticate` });
    expect(step.body).toContain('Complete authentication');
    expect(step.body).toContain('3184');
    expect(await me(c)).toMatchObject({ hasSubscription: false });
    const failed = await postForm(ctx.app, `${path}/authenticate`, { decision: 'fail' });
    expect(failed.status).toBe(402);
    expect(failed.body).toContain('unable to authenticate');
    expect(await me(c)).toMatchObject({ hasSubscription: false, crowns: 0 });
    await postForm(ctx.app, path, card);
    const ok = await postForm(ctx.app, `${path}/authenticate`, { decision: 'approve' });
    expect(ok.status).toBe(303);
    expect(await me(c)).toMatchObject({ hasSubscription: true, subscriptionType: 'unlimited', crowns: 35 });
  });

  it('grants nothing for an unpaid checkout or the success address alone', async () => {
    const { c } = await user();
    await openCheckout(c, 'pro');
    await c.get('/settings?checkout=success');
    await c.get('/api/auth/user?checkout=success');
    expect(await me(c)).toMatchObject({ hasSubscription: false, mixCredits: 0, masteringCredits: 0 });
    const missing = await ctx.app.inject({ method: 'GET', url: '/billing/checkout/cs_local_doesnotexist00' });
    expect(missing.statusCode).toBe(404);
    // An unpaid session expires after a day, like a provider's.
    const stale = await openCheckout(c, 'pro');
    await ctx.database.db
      .update(localCheckoutSessions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(localCheckoutSessions.id, stale.split('/').pop()!));
    const late = await postForm(ctx.app, stale, {
      number: TEST_CARD_NUMBERS.success,
      expiry: FUTURE_EXPIRY,
      cvc: '123',
    });
    expect(late.status).toBe(404);
    expect(await me(c)).toMatchObject({ hasSubscription: false });
  });

  it('Pro spends the specific credit first, then crowns; nobody goes below zero', async () => {
    const { c } = await user();
    await subscribe(ctx.app, c, 'pro');
    expect((await c.post('/api/purchase-crowns', { amount: 2 })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const res = await spend(c, 'mastering');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Used 1 mastering credit' });
    }
    expect(await me(c)).toMatchObject({ mixCredits: 10, masteringCredits: 0, crowns: 2 });
    const crown = await spend(c, 'mastering');
    expect(crown.body).toMatchObject({ success: true, message: 'Used 1 crown', user: { crowns: 1 } });
    expect((await spend(c, 'mix')).body).toMatchObject({
      message: 'Used 1 mix credit',
      user: { mixCredits: 9 },
    });
    await spend(c, 'mastering');
    const empty = await spend(c, 'mastering');
    expect(empty.status).toBe(402);
    expect(empty.body).toMatchObject({ message: BILLING_MESSAGES.noCreditsMastering });
    expect(await me(c)).toMatchObject({ mixCredits: 9, masteringCredits: 0, crowns: 0 });
  });

  it('the same idempotency key spends once, even when sent again after the balance ran out', async () => {
    const { c } = await user();
    await subscribe(ctx.app, c, 'pro');
    const key = 'download-2026-abc';
    const first = await spend(c, 'mix', key);
    const again = await spend(c, 'mix', key);
    expect(first.body).toMatchObject({ success: true, user: { mixCredits: 9 } });
    expect(again.body).toMatchObject({ success: true, user: { mixCredits: 9 } });
    const same = await Promise.all(Array.from({ length: 10 }, () => spend(c, 'mastering', 'parallel-key-1')));
    expect(same.every((r) => r.status === 200)).toBe(true);
    expect(await me(c)).toMatchObject({ mixCredits: 9, masteringCredits: 9 });
    expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'short' })).status).toBe(400);
    expect(
      (await c.post('/api/spend-credit', { type: 'vocals', idempotencyKey: 'long-enough' })).status,
    ).toBe(400);
  });

  it('Unlimited spends crowns for both mix and mastering', async () => {
    const { c } = await user();
    await subscribe(ctx.app, c, 'unlimited');
    expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35, mixCredits: 0 });
    expect((await spend(c, 'mix')).body).toMatchObject({ message: 'Used 1 crown', user: { crowns: 34 } });
    expect((await spend(c, 'mastering')).body).toMatchObject({
      message: 'Used 1 crown',
      user: { crowns: 33 },
    });
  });

  it('upgrade Pro → Unlimited on the first day: immediate, $29.99 less the unused $9.99 charged, 35 crowns at once, credits kept', async () => {
    const { c, user: u } = await user();
    await subscribe(ctx.app, c, 'pro');
    await spend(c, 'mix');
    const res = await c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Decision 250: the Pro month just paid is unused (whole, to the cent), so it is credited in full.
    expect((res.body as { message: string }).message).toContain('$20.00 was charged');
    expect(await me(c)).toMatchObject({
      subscriptionType: 'unlimited',
      mixCredits: 9,
      masteringCredits: 10,
      crowns: 35,
    });
    expect((await paymentsOf(u.id)).map((p) => [p.kind, p.amountCents])).toEqual([
      ['subscription_create', 999],
      ['subscription_update', 2000],
    ]);
    // Unlimited cannot be "upgraded" again, and a cycle grants the Unlimited allowance.
    expect(
      (await c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' })).status,
    ).toBe(409);
    await advance(u.id);
    expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', mixCredits: 9, crowns: 70 });
  });

  it('downgrade Unlimited → Pro waits for the next cycle, charges nothing now, keeps crowns', async () => {
    const { c, user: u } = await user();
    await subscribe(ctx.app, c, 'unlimited');
    await spend(c, 'mix');
    const res = await c.post('/api/auth/change-subscription', { type: 'downgrade', plan: 'pro' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as { message: string }).message).toContain('next billing cycle');
    expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 34 });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({ pendingPlan: 'pro', subscriptionType: 'unlimited' });
    expect((await paymentsOf(u.id)).length).toBe(1);
    expect((await c.post('/api/auth/change-subscription', { type: 'downgrade', plan: 'pro' })).status).toBe(
      409,
    );
    await advance(u.id);
    expect(await me(c)).toMatchObject({
      subscriptionType: 'pro',
      mixCredits: 10,
      masteringCredits: 10,
      crowns: 34,
    });
    expect((await paymentsOf(u.id)).map((p) => [p.kind, p.amountCents])).toEqual([
      ['subscription_create', 2999],
      ['subscription_cycle', 999],
    ]);
  });

  it('cancel keeps access until the period ends, then the account is back on the trial', async () => {
    const { c, user: u } = await user();
    await subscribe(ctx.app, c, 'pro');
    const res = await c.post('/api/auth/change-subscription', { type: 'cancel' });
    expect(res.status).toBe(200);
    expect((res.body as { message: string }).message).toContain('keep access until');
    expect(await me(c)).toMatchObject({ hasSubscription: true, subscriptionType: 'pro' });
    expect((await spend(c, 'mastering')).status).toBe(200);
    expect((await c.post('/api/auth/change-subscription', { type: 'cancel' })).status).toBe(409);
    await advance(u.id);
    expect(await me(c)).toMatchObject({
      hasSubscription: false,
      subscriptionType: null,
      masteringCredits: 9,
    });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({
      subscriptionStatus: 'canceled',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
    expect((await spend(c, 'mastering')).status).toBe(403);
    expect((await c.post('/api/purchase-crowns', { amount: 1 })).status).toBe(403);
    // Subscribing again works after the end.
    await subscribe(ctx.app, c, 'pro');
    expect(await me(c)).toMatchObject({ subscriptionType: 'pro', masteringCredits: 19 });
  });

  it('each cycle adds the allowance to the balance', async () => {
    const { c, user: u } = await user();
    await subscribe(ctx.app, c, 'pro');
    for (let i = 0; i < 3; i++) await spend(c, 'mix');
    await advance(u.id);
    expect(await me(c)).toMatchObject({ mixCredits: 17, masteringCredits: 20 });
    await advance(u.id);
    expect(await me(c)).toMatchObject({ mixCredits: 27, masteringCredits: 30 });
    expect((await paymentsOf(u.id)).map((p) => p.amountCents)).toEqual([999, 999, 999]);
  });

  it('crown purchase: 1..1000 integers at the plan price, totalCost in cents', async () => {
    const { c: pro } = await user();
    await subscribe(ctx.app, pro, 'pro');
    for (const amount of [0, 1001, 2.5, -3, '10', null]) {
      const res = await pro.post('/api/purchase-crowns', { amount });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toMatchObject({ message: BILLING_MESSAGES.crownQuantity });
    }
    expect((await pro.post('/api/purchase-crowns', { amount: 25 })).body).toMatchObject({
      totalCost: 2500,
      user: { crowns: 25 },
    });
    expect((await pro.post('/api/purchase-crowns', { amount: 1 })).body).toMatchObject({ totalCost: 100 });
    expect((await pro.post('/api/purchase-crowns', { amount: 1000 })).body).toMatchObject({
      totalCost: 100000,
      user: { crowns: 1026 },
    });
    const { c: unl } = await user();
    await subscribe(ctx.app, unl, 'unlimited');
    expect((await unl.post('/api/purchase-crowns', { amount: 25 })).body).toMatchObject({
      totalCost: 1250,
      user: { crowns: 60 },
    });
    expect((await unl.post('/api/purchase-crowns', { amount: 1000 })).body).toMatchObject({
      totalCost: 50000,
    });
  });

  it('only an admin advances a billing cycle; the change-subscription body is validated', async () => {
    const { c, user: u } = await user();
    await subscribe(ctx.app, c, 'pro');
    const res = await c.post('/api/admin/billing/advance-cycle', { userId: u.id });
    expect(res.status).toBe(403);
    expect(await me(c)).toMatchObject({ mixCredits: 10 });
    expect((await c.post('/api/auth/change-subscription', { type: 'upgrade' })).status).toBe(400);
    expect((await c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'pro' })).status).toBe(
      400,
    );
    expect((await c.post('/api/auth/change-subscription', { type: 'pause' })).status).toBe(400);
    expect((await c.post('/api/auth/change-subscription', { type: 'downgrade', plan: 'pro' })).status).toBe(
      409,
    );
  });

  it('deleting the account cancels the subscription first', async () => {
    const { c, user: u } = await user('leaving@example.test');
    checked.pop();
    await subscribe(ctx.app, c, 'pro');
    const res = await c.delete('/api/auth/account', { confirm: 'leaving@example.test' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const left = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    expect(left).toEqual([]);
  });
});
