import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { localSubscriptions, payments, subscriptions } from '../../db/schema';
import { describeEachDatabase, enableTwoFactor, signedUpClient, verifiedClient } from '../../test/harness';
import { addMonth } from './billing-period';
import {
  expectLedgerMatchesBalances,
  FUTURE_EXPIRY,
  me,
  openCheckout,
  postForm,
  rowsOf,
  subscribe,
} from './billing-test-helpers';
import { TEST_CARD_NUMBERS } from './test-cards';

/**
 * Identical money requests arriving together (double clicks, retries, several tabs): each charges and
 * grants once. PGlite serialises everything, so only the PostgreSQL run of this suite proves the races.
 */
describeEachDatabase('billing races', (ctx) => {
  const paymentsOf = (userId: number) =>
    ctx.database.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.id);
  const providerSubscriptions = (userId: number) =>
    rowsOf<{ plan: string; status: string }>(
      ctx.database.db,
      sql`select plan, status from local_subscriptions where user_id = ${userId}`,
    );

  it('ten parallel upgrades Pro → Unlimited: exactly one is charged and granted, the rest answer 409', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(refused.body).toMatchObject({ code: 'conflict' });
      expect((refused.body as { message: string }).message).toMatch(/Unlimited|in progress/);
    }
    expect((await paymentsOf(user.id)).map((p) => [p.kind, p.amountCents])).toEqual([
      ['subscription_create', 999],
      // Upgraded on the Pro month's first day: $29.99 less the whole unused $9.99 (decision 250).
      ['subscription_update', 2000],
    ]);
    expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
    expect(await providerSubscriptions(user.id)).toEqual([{ plan: 'unlimited', status: 'active' }]);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('six open checkout sessions paid at once: one subscription, one charge, one allowance', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    const pages = [];
    for (let i = 0; i < 6; i++) pages.push(await openCheckout(c, i % 2 ? 'pro' : 'unlimited'));
    const paid = await Promise.all(
      pages.map((page) =>
        postForm(ctx.app, page, { number: TEST_CARD_NUMBERS.success, expiry: FUTURE_EXPIRY, cvc: '123' }),
      ),
    );
    // One page goes on to the app; the others say the account already has a subscription.
    expect(paid.filter((p) => p.status === 303).length).toBe(1);
    for (const other of paid.filter((p) => p.status !== 303)) expect(other.body).toContain('already');
    const active = (await providerSubscriptions(user.id)).filter((s) => s.status === 'active');
    expect(active.length).toBe(1);
    expect(
      (await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).length,
    ).toBe(1);
    const charged = await paymentsOf(user.id);
    expect(charged.length).toBe(1);
    const plan = active[0]!.plan;
    expect(charged[0]!.amountCents).toBe(plan === 'pro' ? 999 : 2999);
    expect(await me(c)).toMatchObject(
      plan === 'pro' ? { mixCredits: 10, masteringCredits: 10, crowns: 0 } : { mixCredits: 0, crowns: 35 },
    );
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('parallel advances of a billing cycle: each renewal that answers 200 is one period, charged once', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const { c: admin } = await verifiedClient(ctx, 'boss@example.test');
    await enableTwoFactor(admin);
    const periodEnd = async () =>
      (
        await ctx.database.db
          .select({ end: localSubscriptions.currentPeriodEnd })
          .from(localSubscriptions)
          .where(eq(localSubscriptions.userId, user.id))
      )[0]!.end;
    const before = await periodEnd();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => admin.post('/api/admin/billing/advance-cycle', { userId: user.id })),
    );
    const renewed = results.filter((r) => r.status === 200).length;
    // PGlite runs them one after another (five renewals); on PostgreSQL they overlap and one wins.
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(renewed).toBeGreaterThan(0);
    let expected = before;
    for (let i = 0; i < renewed; i++) expected = addMonth(expected);
    expect(await periodEnd()).toEqual(expected);
    expect((await paymentsOf(user.id)).filter((p) => p.kind === 'subscription_cycle').length).toBe(renewed);
    expect(await me(c)).toMatchObject({ mixCredits: 10 + 10 * renewed, masteringCredits: 10 + 10 * renewed });
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('ten identical parallel crown purchases with one idempotency key: one charge, ten equal answers', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const body = { amount: 20, idempotencyKey: 'buy-crowns-click-1' };
    const results = await Promise.all(Array.from({ length: 10 }, () => c.post('/api/purchase-crowns', body)));
    for (const r of results) {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ totalCost: 2000 });
    }
    // A retry long after answers the first result again and charges nothing.
    const again = await c.post('/api/purchase-crowns', body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ totalCost: 2000, user: { crowns: 20 } });
    expect((await paymentsOf(user.id)).map((p) => [p.kind, p.amountCents])).toEqual([
      ['subscription_create', 999],
      ['crowns', 2000],
    ]);
    expect(await me(c)).toMatchObject({ crowns: 20 });
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('a crown idempotency key reused for another amount is refused and changes nothing', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    expect(
      (await c.post('/api/purchase-crowns', { amount: 5, idempotencyKey: 'buy-crowns-click-2' })).status,
    ).toBe(200);
    const reused = await c.post('/api/purchase-crowns', { amount: 50, idempotencyKey: 'buy-crowns-click-2' });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused' });
    // A different click is a different purchase; no key at all still buys (older clients).
    expect(
      (await c.post('/api/purchase-crowns', { amount: 5, idempotencyKey: 'buy-crowns-click-3' })).status,
    ).toBe(200);
    expect((await c.post('/api/purchase-crowns', { amount: 5 })).status).toBe(200);
    expect(await me(c)).toMatchObject({ crowns: 15 });
    expect((await paymentsOf(user.id)).filter((p) => p.kind === 'crowns').length).toBe(3);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('a malformed crown idempotency key is refused with the usual error and charges nothing', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const res = await c.post('/api/purchase-crowns', { amount: 5, idempotencyKey: 'short' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'idempotencyKey must be 8 to 100 characters' });
    expect((await paymentsOf(user.id)).length).toBe(1);
  });
});
