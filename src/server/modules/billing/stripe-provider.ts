import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLAN_IDS, PLANS, type Plan, type PlanId, planByLookupKey } from '../../../shared/plans';
import type { Db } from '../../db/client';
import { billingCustomers } from '../../db/schema';
import { AppError, conflict } from '../../errors';
import type { UserRow } from '../auth/user-view';
import {
  type CrownPayment,
  isEntitled,
  type PaidInvoice,
  type PaymentProvider,
  type ProviderEvent,
  type SubscriptionSnapshot,
  type UpgradeQuote,
  upgradeInvoice,
} from './payment-provider';
import { call } from './stripe-errors';
import { cancelSubscriptionNow, refundSubscriptionInvoices } from './stripe-refunds';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  /** A stand-in for the Stripe API (tests): the SDK is pointed at its host, port and protocol. */
  apiUrl: string | undefined;
}

/** Signatures older than this are replays (Stripe's own default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function stripeClient(s: StripeSettings): Stripe {
  const url = s.apiUrl ? new URL(s.apiUrl) : undefined;
  return new Stripe(s.secretKey, {
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'http:' ? 80 : 443),
          protocol: url.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    maxNetworkRetries: 2,
    timeout: 15_000,
  });
}

/** How an upgrade changes the subscription, the same in the preview and in the update (decision 250). */
const upgradeTerms = {
  proration_behavior: 'always_invoice',
  billing_cycle_anchor: { type: 'now' },
} as const;

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/**
 * The Stripe adapter: Checkout Sessions in subscription mode from the lookup keys `pro_plan` and
 * `unlimited_plan`; upgrades (prorated, decision 250) and crown purchases charge the saved card; a downgrade
 * swaps the price with no proration and remembers in the subscription's metadata which plan runs until the
 * period ends.
 */
export function createStripeProvider(d: { db: Db; settings: StripeSettings; publicOrigin: string }) {
  const stripe = stripeClient(d.settings);
  let prices: Promise<Map<PlanId, string>> | undefined;

  /** Price ids by plan, looked up once by lookup key (a failed lookup is retried next time). */
  const priceIds = (): Promise<Map<PlanId, string>> => {
    prices ??= call(async () => {
      const list = await stripe.prices.list({
        lookup_keys: PLAN_IDS.map((p) => PLANS[p].lookupKey),
        active: true,
      });
      const map = new Map<PlanId, string>();
      for (const price of list.data) {
        const plan = price.lookup_key ? planByLookupKey(price.lookup_key) : undefined;
        if (plan) map.set(plan.id, price.id);
      }
      for (const id of PLAN_IDS) {
        if (!map.has(id))
          throw new Error(`Stripe has no active price with lookup key ${PLANS[id].lookupKey}`);
      }
      return map;
    });
    prices.catch(() => {
      prices = undefined;
    });
    return prices;
  };
  const priceOf = async (plan: Plan) => (await priceIds()).get(plan.id)!;
  const planOfPrice = async (price: Stripe.Price | string | null | undefined): Promise<PlanId | null> => {
    if (price && typeof price !== 'string' && price.lookup_key) {
      const plan = planByLookupKey(price.lookup_key);
      if (plan) return plan.id;
    }
    const id = idOf(price ?? null);
    for (const [plan, priceId] of await priceIds()) if (priceId === id) return plan;
    return null;
  };

  const customerOf = async (userId: number): Promise<string | null> => {
    const [row] = await d.db
      .select({ customerId: billingCustomers.customerId })
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, 'stripe')))
      .limit(1);
    return row?.customerId ?? null;
  };

  const ensureCustomer = async (user: UserRow): Promise<string> => {
    const existing = await customerOf(user.id);
    if (existing) return existing;
    const created = await call(() =>
      stripe.customers.create({
        email: user.email,
        name: user.username,
        metadata: { userId: String(user.id) },
      }),
    );
    await d.db
      .insert(billingCustomers)
      .values({ userId: user.id, provider: 'stripe', customerId: created.id })
      .onConflictDoNothing();
    return (await customerOf(user.id)) ?? created.id;
  };

  const firstItem = (sub: Stripe.Subscription) => {
    const item = sub.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${sub.id} has no items`);
    return item;
  };

  async function snapshotOf(sub: Stripe.Subscription): Promise<SubscriptionSnapshot> {
    const item = firstItem(sub);
    const itemPlan = await planOfPrice(item.price);
    if (!itemPlan) throw new Error(`Stripe subscription ${sub.id} has a price that is not one of our plans`);
    const meta = sub.metadata ?? {};
    const from = meta.downgrade_from as PlanId | undefined;
    // The downgrade was asked for during the period that ends at downgrade_until: until then, the old plan.
    const deferred =
      from !== undefined &&
      from in PLANS &&
      from !== itemPlan &&
      Number(meta.downgrade_until) >= item.current_period_end;
    const userId = Number(meta.userId);
    return {
      id: sub.id,
      userId: Number.isInteger(userId) && userId > 0 ? userId : null,
      customerId: idOf(sub.customer),
      plan: deferred ? from : itemPlan,
      pendingPlan: deferred ? itemPlan : null,
      status: sub.status,
      currentPeriodEnd: new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
    };
  }

  /** The card Stripe charges off-session: the subscription's, else the customer's first card. */
  async function chargeableCard(customerId: string): Promise<string> {
    const customer = await call(() => stripe.customers.retrieve(customerId));
    const preferred =
      'deleted' in customer && customer.deleted
        ? null
        : idOf(customer.invoice_settings?.default_payment_method);
    if (preferred) return preferred;
    const cards = await call(() =>
      stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 }),
    );
    const first = cards.data[0];
    if (!first) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
    return first.id;
  }

  /** The paid invoice of an upgrade Stripe already made (the subscription is on the new price), else a 409. */
  async function earlierUpgrade(sub: Stripe.Subscription, to: Plan): Promise<PaidInvoice> {
    const last = sub.latest_invoice;
    if (
      !last ||
      typeof last === 'string' ||
      !last.id ||
      last.status !== 'paid' ||
      last.billing_reason !== 'subscription_update'
    ) {
      throw new AppError(409, 'conflict', BILLING_MESSAGES.upgradeOnlyFromPro);
    }
    return paidUpgrade(sub, last.id, last.amount_paid, to);
  }

  /** The upgrade's paid invoice, its user and customer read from the subscription as Stripe returned it. */
  async function paidUpgrade(
    sub: Stripe.Subscription,
    invoiceId: string,
    amountCents: number,
    to: Plan,
  ): Promise<PaidInvoice> {
    const snapshot = await snapshotOf(sub);
    return upgradeInvoice({
      id: invoiceId,
      userId: snapshot.userId,
      customerId: snapshot.customerId,
      subscriptionId: sub.id,
      to,
      amountCents,
    });
  }

  const provider: PaymentProvider = {
    name: 'stripe',

    /**
     * Called under the user's billing claim (decision 157), so two of these never overlap for one user.
     * Stripe, not our mirror, says whether the customer already pays (the webhook of a checkout paid a
     * moment ago may not have arrived). The customer's open sessions are expired *before* the new one is
     * created, so there is no moment with two payable; one paid meanwhile cannot be expired, and then the
     * customer is subscribed and nothing new is opened.
     */
    async createCheckout(user: UserRow, plan: Plan) {
      const customer = await ensureCustomer(user);
      const price = await priceOf(plan);
      const alreadySubscribed = () => conflict(BILLING_MESSAGES.alreadySubscribed);
      const paying = async () =>
        (await call(() => stripe.subscriptions.list({ customer, status: 'all', limit: 100 }))).data.some(
          (s) => isEntitled(s.status),
        );
      if (await paying()) throw alreadySubscribed();
      const open = await call(() => stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 }));
      for (const other of open.data) {
        try {
          await call(() => stripe.checkout.sessions.expire(other.id));
        } catch (err) {
          // Completed between the list and the expiry (paid in another tab), or expired by Stripe itself.
          if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
          if (await paying()) throw alreadySubscribed();
        }
      }
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer,
          client_reference_id: String(user.id),
          line_items: [{ price, quantity: 1 }],
          subscription_data: { metadata: { userId: String(user.id) } },
          metadata: { userId: String(user.id) },
          success_url: `${d.publicOrigin}/settings?checkout=success`,
          cancel_url: `${d.publicOrigin}/checkout?plan=${plan.id}`,
        }),
      );
      if (!session.url) throw new AppError(502, 'provider_error', BILLING_MESSAGES.providerUnavailable);
      return session.url;
    },

    retrieveSubscription: async (id: string) =>
      snapshotOf(await call(() => stripe.subscriptions.retrieve(id))),

    /**
     * Stripe's own figure: the invoice the upgrade would create now, from the upcoming-invoice preview with
     * the very parameters `upgrade` sends (a month of the new price from now, less the unused time of the old
     * one). The credit is the sum of the preview's negative proration lines.
     */
    async previewUpgrade(subscriptionId: string, to: Plan, at: Date): Promise<UpgradeQuote> {
      const sub = await call(() =>
        stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] }),
      );
      const item = firstItem(sub);
      const price = await priceOf(to);
      const prorationDate = Math.floor(at.getTime() / 1000);
      // Upgraded at Stripe already (an answer lost in a crash): the figure is what that upgrade charged, which
      // `upgrade` then records without charging again.
      if (idOf(item.price) === price) {
        const earlier = await earlierUpgrade(sub, to);
        return {
          at,
          amountDueCents: earlier.amountCents,
          creditCents: 0,
          unusedSeconds: 0,
          newPeriodEnd: new Date(item.current_period_end * 1000),
        };
      }
      const preview = await call(() =>
        stripe.invoices.createPreview({
          customer: idOf(sub.customer) ?? undefined,
          subscription: subscriptionId,
          subscription_details: {
            items: [{ id: item.id, price }],
            ...upgradeTerms,
            proration_date: prorationDate,
          },
        }),
      );
      const creditCents = -preview.lines.data.reduce((sum, l) => sum + Math.min(0, l.amount), 0);
      const newPeriodEnd = preview.lines.data.reduce(
        (end, l) => Math.max(end, l.period?.end ?? 0),
        prorationDate,
      );
      return {
        at: new Date(prorationDate * 1000),
        amountDueCents: Math.max(0, preview.amount_due),
        creditCents,
        unusedSeconds: Math.max(0, item.current_period_end - prorationDate),
        newPeriodEnd: new Date(newPeriodEnd * 1000),
      };
    },

    async upgrade(
      subscriptionId: string,
      to: Plan,
      idempotencyKey: string,
      quote: UpgradeQuote,
    ): Promise<PaidInvoice> {
      const sub = await call(() =>
        stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] }),
      );
      const item = firstItem(sub);
      const price = await priceOf(to);
      // Already on the new price: an earlier attempt went through at Stripe (and a crash, say, kept us from
      // recording it). Its paid invoice is the answer; updating again would charge a second time.
      if (idOf(item.price) === price) return earlierUpgrade(sub, to);
      // A new cycle starts now, the unused old time credited (prorated at the quote's moment, so Stripe
      // charges the amount the quote showed), paid at once or not at all. Our idempotency key (not the
      // SDK's per-call one) makes a retry after a crash or timeout return the first answer.
      const updated = await call(() =>
        stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price }],
            ...upgradeTerms,
            proration_date: Math.floor(quote.at.getTime() / 1000),
            payment_behavior: 'error_if_incomplete',
            cancel_at_period_end: false,
            // Empty values delete the keys: no downgrade is pending any more.
            metadata: { downgrade_from: '', downgrade_until: '' },
            expand: ['latest_invoice'],
          },
          { idempotencyKey },
        ),
      );
      const invoice = updated.latest_invoice;
      if (!invoice || typeof invoice === 'string' || invoice.status !== 'paid' || !invoice.id) {
        throw new AppError(402, 'card_declined', BILLING_MESSAGES.cardDeclined);
      }
      return paidUpgrade(updated, invoice.id, invoice.amount_paid, to);
    },

    async scheduleDowngrade(subscriptionId: string, to: Plan) {
      const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId));
      const item = firstItem(sub);
      const current = await snapshotOf(sub);
      const price = await priceOf(to);
      // The next invoice is at the new price; until the period ends, the metadata keeps the old plan.
      await call(() =>
        stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'none',
          metadata: { downgrade_from: current.plan, downgrade_until: String(item.current_period_end) },
        }),
      );
    },

    async cancelAtPeriodEnd(subscriptionId: string) {
      await call(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
    },

    cancelNow: (subscriptionId: string) => cancelSubscriptionNow(stripe, subscriptionId),

    refundSubscription: (subscriptionId: string) => refundSubscriptionInvoices(stripe, subscriptionId),

    async chargeCrowns(
      user: UserRow,
      crowns: number,
      amountCents: number,
      idempotencyKey: string,
    ): Promise<CrownPayment> {
      const customer = await customerOf(user.id);
      if (!customer) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
      const paymentMethod = await chargeableCard(customer);
      const intent = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: 'usd',
            customer,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            description: `${crowns} crowns`,
            metadata: { kind: 'crowns', userId: String(user.id), crowns: String(crowns) },
          },
          { idempotencyKey },
        ),
      );
      if (intent.status !== 'succeeded')
        throw new AppError(402, 'card_declined', BILLING_MESSAGES.cardDeclined);
      return { id: intent.id, userId: user.id, crowns, amountCents: intent.amount_received || amountCents };
    },

    /** Stripe mails receipts and invoices to the customer's address: it follows the account's. */
    async updateCustomerEmail(userId: number, email: string) {
      const customer = await customerOf(userId);
      if (customer) await call(() => stripe.customers.update(customer, { email }));
    },

    async listPaymentMethods(user: UserRow) {
      const customer = await customerOf(user.id);
      if (!customer) return [];
      const list = await call(() => stripe.paymentMethods.list({ customer, type: 'card', limit: 10 }));
      return list.data
        .filter((m) => m.card)
        .map((m) => ({
          brand: m.card!.brand,
          last4: m.card!.last4,
          expMonth: m.card!.exp_month,
          expYear: m.card!.exp_year,
        }));
    },
  };

  return {
    ...provider,
    name: 'stripe' as const,
    stripe,

    /** Verifies the signature on the raw body (missing, wrong or stale ones throw) and parses the event. */
    verify(rawBody: Buffer, signature: string): Stripe.Event {
      if (!d.settings.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
      return stripe.webhooks.constructEvent(
        rawBody,
        signature,
        d.settings.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
    },

    /** What a verified Stripe event asks of our fulfilment; null for events we do not act on. */
    async toProviderEvent(event: Stripe.Event): Promise<ProviderEvent | null> {
      const base = { id: event.id, type: event.type };
      switch (event.type) {
        case 'checkout.session.completed': {
          const s = event.data.object;
          if (s.mode !== 'subscription') return null;
          const userId = Number(s.client_reference_id ?? s.metadata?.userId);
          const customerId = idOf(s.customer);
          return {
            ...base,
            customer: customerId && userId > 0 ? { customerId, userId } : undefined,
            subscriptionId: idOf(s.subscription) ?? undefined,
          };
        }
        case 'invoice.paid': {
          const inv = event.data.object;
          const subscriptionId = idOf(inv.parent?.subscription_details?.subscription) ?? undefined;
          let plan: PlanId | null = null;
          // The plan is the one the invoice starts; a proration line is the credit for the old one.
          for (const line of inv.lines.data) {
            if (line.parent?.subscription_item_details?.proration) continue;
            plan ??= await planOfPrice(line.pricing?.price_details?.price);
          }
          if (!plan || !inv.id) return { ...base, subscriptionId };
          return {
            ...base,
            subscriptionId,
            paidInvoice: {
              id: inv.id,
              userId: Number(inv.parent?.subscription_details?.metadata?.userId) || null,
              customerId: idOf(inv.customer),
              subscriptionId: subscriptionId ?? null,
              plan,
              amountCents: inv.amount_paid,
              billingReason: inv.billing_reason ?? 'subscription_cycle',
            },
          };
        }
        case 'invoice.payment_failed': {
          const subscriptionId = idOf(event.data.object.parent?.subscription_details?.subscription);
          return subscriptionId ? { ...base, subscriptionId } : null;
        }
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          return { ...base, subscriptionId: event.data.object.id };
        case 'payment_intent.succeeded': {
          const pi = event.data.object;
          if (pi.metadata?.kind !== 'crowns') return null;
          const userId = Number(pi.metadata.userId);
          const crowns = Number(pi.metadata.crowns);
          if (!(userId > 0) || !(crowns > 0)) return null;
          return {
            ...base,
            crownPayment: { id: pi.id, userId, crowns, amountCents: pi.amount_received || pi.amount },
          };
        }
        default:
          return null;
      }
    },
  };
}
export type StripeProvider = ReturnType<typeof createStripeProvider>;
