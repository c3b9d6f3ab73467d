import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { payments, users } from '../../db/schema';
import { describeEachDatabase, signedUpClient, verificationTokenIn } from '../../test/harness';
import { type Client, expectLedgerMatchesBalances, me, rowsOf } from './billing-test-helpers';
import { startStripeStandIn } from './stripe-stand-in';
import { stripeSigner as signer, stripeEvent } from './stripe-test-helpers';

const WEBHOOK_SECRET = 'whsec_test_billing_secret';
const standIn = await startStripeStandIn();
afterAll(() => standIn.close());

const event = stripeEvent;

describeEachDatabase(
  'stripe adapter and webhook',
  (ctx) => {
    const deliver = async (
      evt: ReturnType<typeof event>,
      opts: { secret?: string; timestamp?: number; tamper?: boolean; noSignature?: boolean } = {},
    ) => {
      const payload = JSON.stringify(evt);
      const header = signer.generateTestHeaderString({
        payload,
        secret: opts.secret ?? WEBHOOK_SECRET,
        timestamp: opts.timestamp,
      });
      const body = opts.tamper ? payload.replace('"livemode":false', '"livemode":true ') : payload;
      return ctx.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          ...(opts.noSignature ? {} : { 'stripe-signature': header }),
        },
        payload: body,
      });
    };
    const eventCount = async () =>
      (await rowsOf<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from payment_events`))[0]!
        .n;

    /** Checkout through Stripe: the session is created by the API, paid at the stand-in, and announced. */
    const subscribeViaStripe = async (c: Client, plan: 'pro' | 'unlimited') => {
      const res = await c.post('/api/create-checkout-session', { lookup_key: `${plan}_plan` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const sessionId = new URL((res.body as { url: string }).url).pathname.split('/').pop()!;
      const paid = standIn.payCheckout(sessionId);
      const completed = event('checkout.session.completed', paid.session);
      const invoicePaid = event('invoice.paid', paid.invoice);
      return { ...paid, completed, invoicePaid };
    };

    it('creates a subscription-mode Checkout Session from the lookup key; the redirect grants nothing', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const res = await c.post('/api/create-checkout-session', { lookup_key: 'unlimited_plan' });
      expect(res.status).toBe(200);
      const url = (res.body as { url: string }).url;
      expect(url.startsWith(`${standIn.url}/pay/cs_test_`)).toBe(true);
      const session = standIn.sessions.get(url.split('/').pop()!)!;
      expect(session).toMatchObject({
        mode: 'subscription',
        client_reference_id: String(user.id),
        line_items: { 0: { price: standIn.prices.unlimited.id, quantity: '1' } },
        subscription_data: { metadata: { userId: String(user.id) } },
      });
      expect(standIn.customers.get(session.customer as string)).toMatchObject({
        metadata: { userId: String(user.id) },
      });
      await c.get('/settings?checkout=success');
      expect(await me(c)).toMatchObject({ hasSubscription: false, crowns: 0 });
    });

    it('applies checkout.session.completed and invoice.paid: Pro with 10 + 10 credits, card from Stripe', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const { completed, invoicePaid } = await subscribeViaStripe(c, 'pro');
      expect((await deliver(completed)).statusCode).toBe(200);
      expect(await me(c)).toMatchObject({ hasSubscription: true, subscriptionType: 'pro', mixCredits: 0 });
      expect((await deliver(invoicePaid)).statusCode).toBe(200);
      expect(await me(c)).toMatchObject({ subscriptionType: 'pro', mixCredits: 10, masteringCredits: 10 });
      expect((await c.get('/api/billing/payment-methods')).body).toEqual({
        methods: [{ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 }],
      });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('the same event delivered 5 times (and the same invoice under a new event id) grants once', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const { completed, invoicePaid, invoice } = await subscribeViaStripe(c, 'unlimited');
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await deliver(invoicePaid));
      results.push(...(await Promise.all([deliver(completed), deliver(completed), deliver(completed)])));
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      expect(results.filter((r) => r.json().duplicate === false).length).toBe(2);
      await deliver(event('invoice.paid', invoice));
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
      const paid = await ctx.database.db.select().from(payments).where(eq(payments.userId, user.id));
      expect(paid.map((p) => p.amountCents)).toEqual([2999]);
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('events out of order end in the provider’s current state', async () => {
      const { c } = await signedUpClient(ctx.app);
      const { completed, invoicePaid, subscription } = await subscribeViaStripe(c, 'pro');
      const staleActive = event('customer.subscription.updated', structuredClone(subscription));
      // At Stripe the subscription is then canceled; the deletion is delivered before the older events.
      subscription.status = 'canceled';
      await deliver(event('customer.subscription.deleted', structuredClone(subscription)));
      await deliver(invoicePaid);
      await deliver(staleActive);
      await deliver(completed);
      expect(await me(c)).toMatchObject({ hasSubscription: false, subscriptionType: null, mixCredits: 10 });

      const { c: c2 } = await signedUpClient(ctx.app);
      const second = await subscribeViaStripe(c2, 'pro');
      const stalePro = event('customer.subscription.updated', structuredClone(second.subscription));
      await deliver(second.completed);
      const upgrade = await c2.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' });
      expect(upgrade.status, JSON.stringify(upgrade.body)).toBe(200);
      // Older events arrive after the upgrade, carrying the Pro plan: the plan stays Unlimited.
      await deliver(stalePro);
      await deliver(second.invoicePaid);
      expect(await me(c2)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35, mixCredits: 10 });
    });

    it('a failed renewal keeps access while Stripe retries (past_due); the final cancellation ends it', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      await deliver(sub.invoicePaid);
      sub.subscription.status = 'past_due';
      const failedInvoice = { ...sub.invoice, id: 'in_failed_1', status: 'open', amount_paid: 0 };
      expect((await deliver(event('invoice.payment_failed', failedInvoice))).statusCode).toBe(200);
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ subscriptionType: 'pro', subscriptionStatus: 'past_due' });
      expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'past-due-1' })).status).toBe(
        200,
      );
      sub.subscription.status = 'canceled';
      await deliver(event('customer.subscription.deleted', sub.subscription));
      expect(await me(c)).toMatchObject({ hasSubscription: false, subscriptionType: null, mixCredits: 9 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('rejects forged, unsigned, wrong-secret and stale webhooks and changes nothing', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const { completed, invoicePaid } = await subscribeViaStripe(c, 'pro');
      const before = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
      const attempts = [
        await deliver(invoicePaid, { tamper: true }),
        await deliver(invoicePaid, { noSignature: true }),
        await deliver(completed, { secret: 'whsec_not_the_right_one' }),
        await deliver(completed, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
        await ctx.app.inject({
          method: 'POST',
          url: '/api/stripe/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
          payload: JSON.stringify(invoicePaid),
        }),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('bad_signature');
      }
      expect(await eventCount()).toBe(0);
      expect(await ctx.database.db.select().from(users).where(eq(users.id, user.id))).toEqual(before);
      // The genuine delivery afterwards still works.
      expect((await deliver(invoicePaid)).statusCode).toBe(200);
      expect(await me(c)).toMatchObject({ mixCredits: 10 });
    });

    it('crown purchases charge the saved card once; a declined card changes nothing', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      const res = await c.post('/api/purchase-crowns', { amount: 25 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ totalCost: 2500, user: { crowns: 25 } });
      const intent = [...standIn.paymentIntents.values()].at(-1)!;
      expect(intent).toMatchObject({ amount: 2500, metadata: { kind: 'crowns', crowns: '25' } });
      // Stripe's own event for the same payment arrives later: no second grant.
      await deliver(event('payment_intent.succeeded', intent));
      expect(await me(c)).toMatchObject({ crowns: 25 });
      standIn.declineNextCharge = true;
      const declined = await c.post('/api/purchase-crowns', { amount: 10 });
      expect(declined.status).toBe(402);
      expect(declined.body).toMatchObject({ message: 'Your card was declined.' });
      expect(await me(c)).toMatchObject({ crowns: 25 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('a new checkout expires the customer’s open ones: of pages opened one after another or at once, one can be paid', async () => {
      const { c } = await signedUpClient(ctx.app);
      const open = async () => {
        const res = await c.post('/api/create-checkout-session', { lookup_key: 'pro_plan' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body as { url: string }).url.split('/').pop()!;
      };
      const first = await open();
      const second = await open();
      const third = await open();
      const customer = standIn.sessions.get(first)!.customer;
      const openOnes = () =>
        [...standIn.sessions.values()].filter((s) => s.customer === customer && s.status === 'open');
      expect(openOnes().map((s) => s.id)).toEqual([third]);
      // Ten at the same moment: one at a time per user (the billing claim), the others are told so, and
      // exactly one session is payable (decision 157).
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => c.post('/api/create-checkout-session', { lookup_key: 'pro_plan' })),
      );
      expect(burst.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      expect(burst.some((r) => r.status === 200)).toBe(true);
      for (const refused of burst.filter((r) => r.status === 409)) {
        expect(refused.body).toMatchObject({
          code: 'conflict',
          message: expect.stringMatching(/in progress/),
        });
      }
      expect(openOnes().length).toBe(1);
      const last = await open();
      expect(openOnes().map((s) => s.id)).toEqual([last]);
      expect(() => standIn.payCheckout(first)).toThrow('expired');
      expect(() => standIn.payCheckout(second)).toThrow('expired');
      expect(() => standIn.payCheckout(third)).toThrow('expired');
      expect(standIn.payCheckout(last).subscription).toMatchObject({ status: 'active' });
    });

    it('a checkout paid a moment ago (its webhook not here yet): Stripe is asked, and no second one opens', async () => {
      const { c } = await signedUpClient(ctx.app);
      const res = await c.post('/api/create-checkout-session', { lookup_key: 'pro_plan' });
      const first = (res.body as { url: string }).url.split('/').pop()!;
      standIn.payCheckout(first);
      expect(await me(c)).toMatchObject({ hasSubscription: false });
      const again = await c.post('/api/create-checkout-session', { lookup_key: 'unlimited_plan' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        message: 'You already have an active subscription. Change it in Settings.',
        code: 'conflict',
      });
      const customer = standIn.sessions.get(first)!.customer;
      expect([...standIn.sessions.values()].filter((s) => s.customer === customer).length).toBe(1);
    });

    it('ten parallel crown purchases with one key: one PaymentIntent at Stripe, under our idempotency key', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      const before = standIn.paymentIntents.size;
      const calledBefore = standIn.requests.length;
      // The stand-in outlives the suite's databases (and their user ids): a key of this run's own.
      const body = { amount: 15, idempotencyKey: `click-${crypto.randomUUID()}` };
      const results = await Promise.all(
        Array.from({ length: 10 }, () => c.post('/api/purchase-crowns', body)),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(standIn.paymentIntents.size - before).toBe(1);
      const calls = standIn.requests
        .slice(calledBefore)
        .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
      expect(new Set(calls.map((r) => r.idempotencyKey))).toEqual(
        new Set([`crowns:${user.id}:${body.idempotencyKey}`]),
      );
      expect(await me(c)).toMatchObject({ crowns: 15 });
      // The key again with another amount: Stripe refuses it, nothing is charged.
      const reused = await c.post('/api/purchase-crowns', { ...body, amount: 30 });
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ code: 'idempotency_key_reused' });
      expect(standIn.paymentIntents.size - before).toBe(1);
      expect(await me(c)).toMatchObject({ crowns: 15 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('an address change made in Settings reaches the Stripe customer (receipts go to the new address)', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      const customer = standIn.customers.get(sub.subscription.customer as string)!;
      expect(customer.email).toBe(user.email);
      const newEmail = `moved.${user.id}@example.test`;
      const asked = await c.post('/api/auth/email-change', { newEmail, password: 'correct horse battery' });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      // Asking changes nothing at Stripe; the confirmed change does.
      expect(customer.email).toBe(user.email);
      const done = await c.post('/api/auth/verify-email', { token: verificationTokenIn(ctx.mail, newEmail) });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(customer.email).toBe(newEmail);
      const update = standIn.requests.filter(
        (r) => r.method === 'POST' && r.path === `/v1/customers/${customer.id}`,
      );
      expect(update.map((r) => r.params)).toEqual([{ email: newEmail }]);
    });

    it('ten parallel upgrades at Stripe: one price swap and one prorated invoice, nine 409s', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      await deliver(sub.invoicePaid);
      const invoicesBefore = standIn.invoices.size;
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      expect(standIn.invoices.size - invoicesBefore).toBe(1);
      const update = standIn.requests.filter(
        (r) => r.method === 'POST' && r.path === `/v1/subscriptions/${sub.subscription.id}`,
      );
      expect(update.length).toBe(1);
      expect(update[0]!.idempotencyKey).toMatch(/^upgrade:/);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('an upgrade Stripe made whose answer was lost is recorded once when asked again, not charged again', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      await deliver(sub.invoicePaid);
      // What a crash right after Stripe's answer leaves: Stripe upgraded and charged, the app knows nothing.
      const stripeSub = standIn.subscriptions.get(sub.subscription.id as string)!;
      (stripeSub.items as { data: Array<Record<string, unknown>> }).data[0]!.price = standIn.prices.unlimited;
      const charged = standIn.invoiceFor(stripeSub, 2999, 'subscription_update');
      expect(await me(c)).toMatchObject({ subscriptionType: 'pro', crowns: 0 });
      const invoicesBefore = standIn.invoices.size;

      const res = await c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(standIn.invoices.size).toBe(invoicesBefore);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited', crowns: 35 });
      const paid = await ctx.database.db.select().from(payments).where(eq(payments.userId, user.id));
      expect(paid.filter((p) => p.kind === 'subscription_update').map((p) => p.reference)).toEqual([
        charged.id,
      ]);
      // Stripe's own event for it arrives later: nothing more.
      await deliver(event('invoice.paid', charged));
      expect(await me(c)).toMatchObject({ crowns: 35 });
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it("upgrade at Stripe mid-period: the preview is Stripe's prorated invoice, and exactly that is charged; downgrade swaps the price for the next cycle", async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const sub = await subscribeViaStripe(c, 'pro');
      await deliver(sub.completed);
      await deliver(sub.invoicePaid);
      // Half a month and an hour into a 30-day Pro period at Stripe (the stand-in's period length).
      const item = (
        standIn.subscriptions.get(sub.subscription.id as string)!.items as {
          data: Array<Record<string, unknown>>;
        }
      ).data[0]!;
      const now = Math.floor(Date.now() / 1000);
      item.current_period_start = now - 15 * 86_400 - 3600;
      item.current_period_end = now + 15 * 86_400 - 3600;
      const preview = await c.get('/api/billing/plan-change-preview?type=upgrade&plan=unlimited');
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      // $29.99 less 999 x (15 days - 1 h) / 30 days = $4.98 for the unused Pro time.
      expect(preview.body).toMatchObject({ amountDueCents: 2501, creditCents: 498, unusedDays: 15 });
      const asked = standIn.requests.filter((r) => r.path === '/v1/invoices/create_preview').at(-1)!;
      expect(asked.params).toMatchObject({
        subscription: sub.subscription.id,
        subscription_details: { proration_behavior: 'always_invoice', billing_cycle_anchor: { type: 'now' } },
      });
      const up = await c.post('/api/auth/change-subscription', {
        type: 'upgrade',
        plan: 'unlimited',
        expectedAmountCents: 2501,
      });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const update = standIn.requests
        .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/'))
        .at(-1)!;
      expect(update.params).toMatchObject({
        proration_behavior: 'always_invoice',
        billing_cycle_anchor: { type: 'now' },
        proration_date: expect.stringMatching(/^\d+$/),
      });
      const upgradeInvoice = standIn.invoices.get(
        standIn.subscriptions.get(sub.subscription.id as string)!.latest_invoice as string,
      )!;
      expect(upgradeInvoice).toMatchObject({ amount_paid: 2501, billing_reason: 'subscription_update' });
      const paid = await ctx.database.db.select().from(payments).where(eq(payments.userId, user.id));
      expect(paid.map((p) => [p.kind, p.amountCents])).toEqual([
        ['subscription_create', 999],
        ['subscription_update', 2501],
      ]);
      expect(await me(c)).toMatchObject({
        subscriptionType: 'unlimited',
        mixCredits: 10,
        masteringCredits: 10,
        crowns: 35,
      });
      await deliver(event('invoice.paid', upgradeInvoice));
      expect(await me(c)).toMatchObject({ crowns: 35 });

      const down = await c.post('/api/auth/change-subscription', { type: 'downgrade', plan: 'pro' });
      expect(down.status, JSON.stringify(down.body)).toBe(200);
      expect(await me(c)).toMatchObject({ subscriptionType: 'unlimited' });
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ pendingPlan: 'pro' });
      // Stripe renews at the new price and announces it.
      const renewal = standIn.renew(sub.subscription.id as string);
      expect(renewal).toMatchObject({ amount_paid: 999 });
      await deliver(event('invoice.paid', renewal));
      expect(await me(c)).toMatchObject({
        subscriptionType: 'pro',
        mixCredits: 20,
        masteringCredits: 20,
        crowns: 35,
      });

      standIn.declineNextCharge = true;
      const failed = await c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' });
      expect(failed.status).toBe(402);
      expect(await me(c)).toMatchObject({ subscriptionType: 'pro', crowns: 35 });
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
