import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { BillingHistoryResponse, PlanChangePreview } from '../../../shared/api/billing';
import { PLANS } from '../../../shared/plans';
import { localPayments, localSubscriptions, payments } from '../../db/schema';
import { client, describeEachDatabase, signedUpClient } from '../../test/harness';
import { type Client, expectLedgerMatchesBalances, me, subscribe } from './billing-test-helpers';
import { createLocalProvider } from './local-provider';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const PREVIEW = '/api/billing/plan-change-preview?type=upgrade&plan=unlimited';

/**
 * Decision 250: a Pro → Unlimited upgrade is charged Unlimited's month less the unused part of the Pro
 * period, computed by the server at the moment of the change; the preview shows the same figure; a confirm
 * of an older figure is refused with nothing charged. Local test provider, on PGlite and PostgreSQL (the
 * concurrent upgrades prove something only on PostgreSQL).
 */
describeEachDatabase('prorated upgrade (local provider)', (ctx) => {
  const db = () => ctx.database.db;
  const paymentsOf = async (userId: number) =>
    (await db().select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.id)).map((p) => [
      p.kind,
      p.amountCents,
    ]);
  const providerCharges = async (userId: number) =>
    (await db().select().from(localPayments).where(eq(localPayments.userId, userId))).length;

  /** A Pro subscriber whose 30-day period began `elapsed` ms ago (at the provider, where it is kept). */
  const proUser = async (elapsedMs: number) => {
    const s = await signedUpClient(ctx.app);
    await subscribe(ctx.app, s.c, 'pro');
    await setPeriod(s.user.id, Date.now() - elapsedMs);
    return s;
  };
  const setPeriod = (userId: number, startMs: number) =>
    db()
      .update(localSubscriptions)
      .set({ currentPeriodStart: new Date(startMs), currentPeriodEnd: new Date(startMs + 30 * DAY) })
      .where(eq(localSubscriptions.userId, userId));
  const preview = async (c: Client) => {
    const res = await c.get(PREVIEW);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as PlanChangePreview;
  };
  const upgrade = (c: Client, expectedAmountCents?: number) =>
    c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited', expectedAmountCents });

  // Each moment is away from a rounding edge by minutes, so the seconds a test takes do not move a cent.
  const moments = [
    { name: 'at the start of the Pro period', elapsed: 0, due: 2000, credit: 999, days: 30 },
    { name: 'in the middle of the Pro period', elapsed: 15 * DAY + HOUR, due: 2501, credit: 498, days: 15 },
    { name: 'an hour before the Pro period ends', elapsed: 30 * DAY - HOUR, due: 2998, credit: 1, days: 0 },
    {
      name: 'an hour after the Pro period ended, not renewed yet',
      elapsed: 30 * DAY + HOUR,
      due: 2999,
      credit: 0,
      days: 0,
    },
  ];
  for (const m of moments) {
    it(`${m.name}: the preview's amount is the one charged and recorded`, async () => {
      const { c, user } = await proUser(m.elapsed);
      const before = Date.now();
      const p = await preview(c);
      expect(p).toMatchObject({
        type: 'upgrade',
        plan: 'unlimited',
        amountDueCents: m.due,
        creditCents: m.credit,
        unusedDays: m.days,
        crownsAdded: 35,
      });
      // The new Unlimited period starts now and runs a calendar month.
      const start = Date.parse(p.newPeriod!.start);
      expect(start).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(p.newPeriod!.end) - start).toBeGreaterThanOrEqual(28 * DAY);

      const res = await upgrade(c, p.amountDueCents);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((res.body as { message: string }).message).toContain(
        `$${(m.due / 100).toFixed(2)} was charged and 35 crowns`,
      );
      expect(await paymentsOf(user.id)).toEqual([
        ['subscription_create', 999],
        ['subscription_update', m.due],
      ]);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
      // The billing history the subscriber reads shows the same amount, newest first.
      const history = await c.get('/api/billing/payments');
      expect((history.body as BillingHistoryResponse).payments.map((p) => [p.kind, p.amountCents])).toEqual([
        ['subscription_update', m.due],
        ['subscription_create', 999],
      ]);
      // The provider's new period is the one the preview showed (to the second of the change).
      const [row] = await db()
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.userId, user.id));
      expect(Math.abs(row!.currentPeriodStart.getTime() - start)).toBeLessThan(10_000);
      await expectLedgerMatchesBalances(db(), user.id);
    });
  }

  it('a confirm of an older figure is refused with the new one, nothing charged; the new figure goes through', async () => {
    const { c, user } = await proUser(15 * DAY + HOUR);
    const first = await preview(c);
    expect(first.amountDueCents).toBe(2501);
    // Three days pass between the preview and the confirm (moved at the provider, as time would).
    await setPeriod(user.id, Date.now() - 18 * DAY - HOUR);
    const stale = await upgrade(c, first.amountDueCents);
    expect(stale.status).toBe(409);
    // 999 x (12 d - 1 h) / 30 d = 398.21: $3.98 credit, $26.01 due.
    expect(stale.body).toMatchObject({ code: 'amount_changed', message: expect.stringContaining('$26.01') });
    expect(await paymentsOf(user.id)).toEqual([['subscription_create', 999]]);
    expect(await providerCharges(user.id)).toBe(1);
    expect(await me(c)).toMatchObject({ subscriptionType: 'pro', crowns: 0 });

    const second = await preview(c);
    expect(second).toMatchObject({ amountDueCents: 2601, creditCents: 398, unusedDays: 12 });
    const ok = await upgrade(c, second.amountDueCents);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await paymentsOf(user.id)).toEqual([
      ['subscription_create', 999],
      ['subscription_update', 2601],
    ]);
    await expectLedgerMatchesBalances(db(), user.id);
  });

  it('the provider recomputes in its own transaction: a period moved after the quote charges nothing', async () => {
    const { user } = await proUser(15 * DAY + HOUR);
    const local = createLocalProvider({ db: db(), publicOrigin: 'http://app.test', deliver: async () => {} });
    const [sub] = await db().select().from(localSubscriptions).where(eq(localSubscriptions.userId, user.id));
    const quote = await local.previewUpgrade(sub!.id, PLANS.unlimited, new Date());
    expect(quote.amountDueCents).toBe(2501);
    // A renewal lands between the service's quote and the provider's charge.
    await setPeriod(user.id, Date.now() - HOUR);
    await expect(local.upgrade(sub!.id, PLANS.unlimited, 'upgrade:moved', quote)).rejects.toMatchObject({
      status: 409,
      code: 'amount_changed',
    });
    expect(await providerCharges(user.id)).toBe(1);
    const [after] = await db()
      .select()
      .from(localSubscriptions)
      .where(eq(localSubscriptions.userId, user.id));
    expect(after!.plan).toBe('pro');
  });

  it('the browser cannot set the amount: a confirm of a smaller figure is refused, charging nothing', async () => {
    const { c, user } = await proUser(15 * DAY + HOUR);
    const res = await upgrade(c, 1);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'amount_changed', message: expect.stringContaining('$25.01') });
    expect(await paymentsOf(user.id)).toEqual([['subscription_create', 999]]);
    // Without a confirmed figure (the spec's body) the server's own amount is charged.
    const plain = await upgrade(c);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect((await paymentsOf(user.id)).at(-1)).toEqual(['subscription_update', 2501]);
  });

  it('ten identical confirms at once: one charge of the previewed amount, one grant, nine 409s', async () => {
    const { c, user } = await proUser(15 * DAY + HOUR);
    const p = await preview(c);
    const results = await Promise.all(Array.from({ length: 10 }, () => upgrade(c, p.amountDueCents)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await paymentsOf(user.id)).toEqual([
      ['subscription_create', 999],
      ['subscription_update', 2501],
    ]);
    expect(await providerCharges(user.id)).toBe(2);
    expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
    await expectLedgerMatchesBalances(db(), user.id);
  });

  it('downgrade and cancel preview $0.00; wrong changes, no subscription and no session are refused', async () => {
    const { c } = await signedUpClient(ctx.app);
    expect((await c.get(PREVIEW)).status).toBe(409);
    await subscribe(ctx.app, c, 'unlimited');
    const down = await c.get('/api/billing/plan-change-preview?type=downgrade&plan=pro');
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const d = down.body as PlanChangePreview;
    expect(d).toMatchObject({ type: 'downgrade', plan: 'pro', amountDueCents: 0, crownsAdded: 0 });
    expect(d.newPeriod!.start).toBe(d.currentPeriodEnd);
    expect((await c.get('/api/billing/plan-change-preview?type=cancel')).body).toMatchObject({
      type: 'cancel',
      plan: 'unlimited',
      amountDueCents: 0,
      newPeriod: null,
    });
    expect((await c.get(PREVIEW)).body).toMatchObject({ code: 'conflict' });
    const wrong = await c.get('/api/billing/plan-change-preview?type=upgrade&plan=pro');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Only a Pro subscription can be upgraded to Unlimited.' });
    expect((await c.get('/api/billing/plan-change-preview?type=swap')).status).toBe(400);
    expect((await client(ctx.app).get(PREVIEW)).status).toBe(401);
    expect((await client(ctx.app).get('/api/billing/payments')).status).toBe(401);
  });
});
