import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { duplicateSubscriptions, payments, subscriptions } from '../../db/schema';
import { describeEachDatabase, openTestDatabase, signedUpClient } from '../../test/harness';
import { type Client, expectLedgerMatchesBalances, me } from './billing-test-helpers';
import { createFulfilment } from './fulfilment';
import { createStripeProvider } from './stripe-provider';
import { startStripeStandIn } from './stripe-stand-in';
import {
  deliverTo,
  extraSession,
  paidCheckoutEvents,
  type StripeTestEvent,
  stripeEvent,
} from './stripe-test-helpers';

const WEBHOOK_SECRET = 'whsec_test_duplicates';
const standIn = await startStripeStandIn();
afterAll(() => standIn.close());

type Plan = 'pro' | 'unlimited';
const PRICE = { pro: 999, unlimited: 2999 } as const;
const ALLOWANCE = {
  pro: { mixCredits: 10, masteringCredits: 10, crowns: 0 },
  unlimited: { mixCredits: 0, masteringCredits: 0, crowns: 35 },
} as const;

/**
 * Decision 157: two subscription checkouts of one user paid in the same instant. Whatever the order,
 * repetition or concurrency of Stripe's events, the user keeps one subscription and its allowance, and the
 * other is ended and refunded at Stripe, once. The PostgreSQL run applies the events on several
 * connections at once; PGlite runs them one after another.
 */
describeEachDatabase(
  'duplicate subscriptions at Stripe',
  (ctx) => {
    const deliver = (evt: StripeTestEvent) => deliverTo(ctx.app, WEBHOOK_SECRET)(evt);

    /** Two payable sessions of one user (one through our API, one a race let through), both paid. */
    const twoPaidCheckouts = async (c: Client, userId: number, plans: [Plan, Plan]) => {
      const res = await c.post('/api/create-checkout-session', { lookup_key: `${plans[0]}_plan` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const first = new URL((res.body as { url: string }).url).pathname.split('/').pop()!;
      const customer = standIn.sessions.get(first)!.customer as string;
      const second = await extraSession(standIn, customer, userId, standIn.prices[plans[1]].id as string);
      return [paidCheckoutEvents(standIn, first), paidCheckoutEvents(standIn, second)] as const;
    };

    const refundsOf = (subscriptionId: string) => {
      const intents = [...standIn.invoices.values()]
        .filter((i) => i.subscription_id === subscriptionId)
        .flatMap((i) => (i.payments as { data: Array<{ payment: { payment_intent: string } }> }).data)
        .map((p) => p.payment.payment_intent);
      return [...standIn.refunds.values()].filter((r) => intents.includes(r.payment_intent as string));
    };

    /** Exactly one live subscription with its plan and allowance; the other ended and refunded once. */
    const expectOneKept = async (
      c: Client,
      userId: number,
      subs: readonly [{ subscription: Record<string, unknown> }, { subscription: Record<string, unknown> }],
      plans: [Plan, Plan],
    ) => {
      const status = subs.map((s) => standIn.subscriptions.get(s.subscription.id as string)!.status);
      expect([...status].sort()).toEqual(['active', 'canceled']);
      const kept = status.indexOf('active');
      const dup = 1 - kept;
      const keptId = subs[kept]!.subscription.id as string;
      const dupId = subs[dup]!.subscription.id as string;
      expect(refundsOf(keptId)).toEqual([]);
      const refunds = refundsOf(dupId);
      expect(refunds.map((r) => r.amount)).toEqual([PRICE[plans[dup]!]]);
      expect(await me(c)).toMatchObject({
        hasSubscription: true,
        subscriptionType: plans[kept],
        ...ALLOWANCE[plans[kept]!],
      });
      const db = ctx.database.db;
      const money = await db.select().from(payments).where(eq(payments.userId, userId));
      expect(money.map((p) => [p.reference, p.amountCents]).sort()).toEqual(
        [
          [subs[0]!.subscription.latest_invoice, PRICE[plans[0]]],
          [subs[1]!.subscription.latest_invoice, PRICE[plans[1]]],
          [refunds[0]!.id, -PRICE[plans[dup]!]],
        ].sort(),
      );
      expect(await db.select().from(duplicateSubscriptions)).toMatchObject([
        {
          userId,
          subscriptionId: dupId,
          keptSubscriptionId: keptId,
          canceledAt: expect.any(Date),
          refundedAt: expect.any(Date),
          refundedCents: PRICE[plans[dup]!],
        },
      ]);
      const mirrored = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
      expect(Object.fromEntries(mirrored.map((s) => [s.providerSubscriptionId, s.status]))).toEqual({
        [keptId]: 'active',
        [dupId]: 'canceled',
      });
      await expectLedgerMatchesBalances(db, userId);
      return { keptId, dupId };
    };

    it('two checkouts paid at once, all their events delivered concurrently: one kept, one canceled and refunded', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      const results = await Promise.all(
        [a.completed, b.completed, a.invoicePaid, b.invoicePaid].map((e) => deliver(e)),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
      await expectOneKept(c, user.id, [a, b], plans);
    });

    it('each event delivered three times, concurrently and out of order: still one refund, one allowance', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['unlimited', 'pro'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      const events = [b.invoicePaid, a.completed, b.completed, a.invoicePaid];
      const results = await Promise.all([...events, ...events.reverse(), ...events].map((e) => deliver(e)));
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(results.filter((r) => r.body.duplicate === false).length).toBe(4);
      const { dupId } = await expectOneKept(c, user.id, [a, b], plans);
      // Stripe then announces the cancellation we asked for, and the same invoice again under a new id.
      const dupSub = standIn.subscriptions.get(dupId)!;
      const dupInvoice = standIn.invoices.get(dupSub.latest_invoice as string)!;
      await deliver(stripeEvent('customer.subscription.deleted', dupSub));
      await deliver(stripeEvent('invoice.paid', dupInvoice));
      await expectOneKept(c, user.id, [a, b], plans);
    });

    it('a failure after the cancel and before the refund is repaired by the next delivery', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'pro'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      expect((await deliver(a.completed)).status).toBe(200);
      expect((await deliver(a.invoicePaid)).status).toBe(200);
      standIn.failNext.refund = 1;
      const failed = await deliver(b.completed);
      // Stripe sees an error and will deliver again; the duplicate is already ended, nothing granted.
      expect(failed.status).toBe(503);
      expect(standIn.subscriptions.get(b.subscription.id as string)!.status).toBe('canceled');
      expect(refundsOf(b.subscription.id as string)).toEqual([]);
      expect(await me(c)).toMatchObject({ subscriptionType: 'pro', mixCredits: 10 });
      const [pending] = await ctx.database.db.select().from(duplicateSubscriptions);
      expect(pending).toMatchObject({ canceledAt: expect.any(Date), refundedAt: null });
      // Its invoice.paid in between grants nothing and records the money taken.
      expect((await deliver(b.invoicePaid)).status).toBe(200);
      expect(refundsOf(b.subscription.id as string).length).toBe(1);
      // The redelivery of the failed event finds nothing left to do.
      const again = await deliver(b.completed);
      expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
      await expectOneKept(c, user.id, [a, b], plans);
    });

    it('a failure of the cancel itself: the redelivery cancels and refunds', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['unlimited', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      await deliver(a.completed);
      standIn.failNext.cancel = 1;
      expect((await deliver(b.completed)).status).toBe(503);
      expect(standIn.subscriptions.get(b.subscription.id as string)!.status).toBe('active');
      expect(refundsOf(b.subscription.id as string)).toEqual([]);
      // Not granted, and not counted for the plan while Stripe still has it.
      await deliver(b.invoicePaid);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 0 });
      const again = await deliver(b.completed);
      expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
      await deliver(a.invoicePaid);
      await expectOneKept(c, user.id, [a, b], plans);
    });

    it('a refund an earlier attempt made (its answer lost) is recorded, not made again', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      await deliver(a.completed);
      await deliver(a.invoicePaid);
      standIn.failNext.refund = 1;
      expect((await deliver(b.completed)).status).toBe(503);
      // What a crash right after Stripe's answer leaves: the refund exists at Stripe, not with us.
      const invoice = standIn.invoices.get(b.subscription.latest_invoice as string)!;
      const intent = (invoice.payments as { data: Array<{ payment: { payment_intent: string } }> }).data[0]!
        .payment.payment_intent;
      const stripe = new (await import('stripe')).default('sk_test_standin', {
        host: '127.0.0.1',
        port: new URL(standIn.url).port,
        protocol: 'http',
      });
      await stripe.refunds.create({ payment_intent: intent });
      expect((await deliver(b.invoicePaid)).status).toBe(200);
      await expectOneKept(c, user.id, [a, b], plans);
    });

    it("a duplicate's invoice.paid after its refund reopens the step; the refund found again is not logged again", async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      const warnings: string[] = [];
      const settings = { secretKey: 'sk_test_standin', webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url };
      const stripe = createStripeProvider({ db: ctx.database.db, settings, publicOrigin: 'http://app.test' });
      const fulfilment = createFulfilment(ctx.database.db, { warn: (_, message) => warnings.push(message) });
      const apply = async (evt: StripeTestEvent) =>
        fulfilment.applyEvent(stripe, (await stripe.toProviderEvent(evt as never))!);
      await apply(a.completed);
      await apply(a.invoicePaid);
      // b's charge is refunded at Stripe here, before we have recorded that charge...
      await apply(b.completed);
      expect(refundsOf(b.subscription.id as string).length).toBe(1);
      // ...so its invoice.paid records it for the first time and opens the refund step again, which finds
      // the refund already made.
      await apply(b.invoicePaid);
      await expectOneKept(c, user.id, [a, b], plans);
      expect(warnings.sort()).toEqual([
        'billing: duplicate subscription canceled at the provider',
        'billing: duplicate subscription refunded',
      ]);
    });

    it('a second server instance on its own connections applies the same events at the same moment: one refund, logged once', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      // Another process's webhook handler: its own pool on PostgreSQL (PGlite has one connection).
      const other = ctx.kind === 'postgres' ? await openTestDatabase('postgres') : ctx.database;
      try {
        const warnings: string[] = [];
        const settings = { secretKey: 'sk_test_standin', webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url };
        const stripe = createStripeProvider({ db: other.db, settings, publicOrigin: 'http://app.test' });
        const fulfilment = createFulfilment(other.db, { warn: (_, message) => warnings.push(message) });
        const applyThere = async (evt: StripeTestEvent) =>
          fulfilment.applyEvent(stripe, (await stripe.toProviderEvent(evt as never))!);
        const events = [a.completed, b.completed, a.invoicePaid, b.invoicePaid];
        await Promise.all([...events.map(applyThere), ...events.map(applyThere)]);
        await Promise.all(events.map((e) => deliver(e)));
        await expectOneKept(c, user.id, [a, b], plans);
        expect(warnings.sort()).toEqual([
          'billing: duplicate subscription canceled at the provider',
          'billing: duplicate subscription refunded',
        ]);
      } finally {
        if (other !== ctx.database) await other.close();
      }
    });

    it('an ended subscription whose deletion event is late is no reason to refund a new one', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const plans: [Plan, Plan] = ['pro', 'unlimited'];
      const [a, b] = await twoPaidCheckouts(c, user.id, plans);
      await deliver(a.completed);
      await deliver(a.invoicePaid);
      // Subscription a ended at Stripe; its customer.subscription.deleted is still on its way.
      standIn.subscriptions.get(a.subscription.id as string)!.status = 'canceled';
      await deliver(b.completed);
      await deliver(b.invoicePaid);
      expect(standIn.subscriptions.get(b.subscription.id as string)!.status).toBe('active');
      expect(refundsOf(b.subscription.id as string)).toEqual([]);
      expect(await ctx.database.db.select().from(duplicateSubscriptions)).toEqual([]);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', mixCredits: 10, crowns: 35 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });
  },
  {
    env: {
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    },
  },
);
