import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import type { Db } from '../../db/client';
import { localCheckoutSessions, localSubscriptions, paymentMethods } from '../../db/schema';
import { AppError, conflict, notFound } from '../../errors';
import type { UserRow } from '../auth/user-view';
import type { Tx } from './ledger-service';
import {
  type CrownPayment,
  ENTITLED_STATUSES,
  type PaidInvoice,
  type PaymentProvider,
  type ProviderEvent,
  type SubscriptionSnapshot,
} from './payment-provider';
import { addMonth, type CardDetails, type CardInput, judgeCard } from './test-cards';

const id = (prefix: string) => `${prefix}_local_${randomBytes(16).toString('base64url')}`;
export const localCustomerId = (userId: number) => `cus_local_${userId}`;

/** Where the local provider's hosted checkout lives (served by this app, see local-checkout-routes.ts). */
export const LOCAL_CHECKOUT_PATH = '/billing/checkout';
const SESSION_LIFETIME_MS = 24 * 3600 * 1000;

export type LocalSession = typeof localCheckoutSessions.$inferSelect;

export type SubmitResult =
  | { kind: 'complete' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; message: string; field: 'number' | 'expiry' | 'cvc' | 'form' };

/**
 * The local test provider: a payment provider that lives in this app, for development, tests and demos
 * without Stripe keys. Its own tables (local_*, payment_methods) play the provider's side; it tells us what
 * happened the way Stripe does, with events, which go through the same fulfilment as Stripe's webhooks.
 */
export function createLocalProvider(d: {
  db: Db;
  publicOrigin: string;
  /** Delivers an event to our fulfilment (set by the module once both exist). */
  deliver: (event: ProviderEvent) => Promise<unknown>;
  now?: () => Date;
}) {
  const now = d.now ?? (() => new Date());
  const db = d.db;

  const subscriptionRow = async (subId: string, tx: Tx = db) => {
    const [row] = await tx.select().from(localSubscriptions).where(eq(localSubscriptions.id, subId)).limit(1);
    if (!row) throw notFound('Subscription not found');
    return row;
  };

  const savedCard = async (userId: number) => {
    const [card] = await db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.provider, 'local')))
      .orderBy(desc(paymentMethods.id))
      .limit(1);
    if (!card) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
    return card;
  };

  const activeSubscriptionOf = async (userId: number) =>
    (
      await db
        .select()
        .from(localSubscriptions)
        .where(
          and(
            eq(localSubscriptions.userId, userId),
            inArray(localSubscriptions.status, [...ENTITLED_STATUSES]),
          ),
        )
        .limit(1)
    )[0];

  /** The card is good: the provider creates the subscription, saves the card, then tells us. */
  async function complete(session: LocalSession, card: CardDetails): Promise<SubmitResult> {
    if (await activeSubscriptionOf(session.userId)) {
      return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.alreadySubscribed };
    }
    const subId = id('sub');
    const plan = PLANS[session.plan as PlanId];
    const claimed = await db.transaction(async (tx) => {
      // Only the first submission of a session completes it (a double click, a second tab).
      const [done] = await tx
        .update(localCheckoutSessions)
        .set({ status: 'complete', completedAt: now(), subscriptionId: subId })
        .where(and(eq(localCheckoutSessions.id, session.id), ne(localCheckoutSessions.status, 'complete')))
        .returning();
      if (!done) return false;
      await tx.insert(localSubscriptions).values({
        id: subId,
        userId: session.userId,
        plan: plan.id,
        status: 'active',
        currentPeriodEnd: addMonth(now()),
      });
      await tx
        .delete(paymentMethods)
        .where(and(eq(paymentMethods.userId, session.userId), eq(paymentMethods.provider, 'local')));
      await tx.insert(paymentMethods).values({
        userId: session.userId,
        provider: 'local',
        providerMethodId: id('pm'),
        ...card,
      });
      return true;
    });
    if (!claimed) return { kind: 'complete' };
    const customer = { customerId: localCustomerId(session.userId), userId: session.userId };
    await d.deliver({ id: id('evt'), type: 'checkout.session.completed', customer, subscriptionId: subId });
    await d.deliver({
      id: id('evt'),
      type: 'invoice.paid',
      subscriptionId: subId,
      paidInvoice: {
        id: id('in'),
        userId: session.userId,
        customerId: customer.customerId,
        subscriptionId: subId,
        plan: plan.id,
        amountCents: plan.priceCents,
        billingReason: 'subscription_create',
      },
    });
    return { kind: 'complete' };
  }

  const provider: PaymentProvider = {
    name: 'local',

    async createCheckout(user: UserRow, plan: Plan) {
      const sessionId = id('cs');
      await db.insert(localCheckoutSessions).values({ id: sessionId, userId: user.id, plan: plan.id });
      return `${d.publicOrigin}${LOCAL_CHECKOUT_PATH}/${sessionId}`;
    },

    async retrieveSubscription(subId: string, tx?: Tx): Promise<SubscriptionSnapshot> {
      const row = await subscriptionRow(subId, tx);
      return {
        id: row.id,
        userId: row.userId,
        customerId: localCustomerId(row.userId),
        plan: row.plan as PlanId,
        pendingPlan: (row.pendingPlan as PlanId | null) ?? null,
        status: row.status,
        currentPeriodEnd: row.currentPeriodEnd,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      };
    },

    async upgrade(subId: string, to: Plan): Promise<PaidInvoice> {
      const row = await subscriptionRow(subId);
      await savedCard(row.userId);
      // Like Stripe with billing_cycle_anchor=now: a new cycle starts today at the new plan's full price.
      await db
        .update(localSubscriptions)
        .set({ plan: to.id, pendingPlan: null, cancelAtPeriodEnd: false, currentPeriodEnd: addMonth(now()) })
        .where(eq(localSubscriptions.id, subId));
      const invoice: PaidInvoice = {
        id: id('in'),
        userId: row.userId,
        customerId: localCustomerId(row.userId),
        subscriptionId: subId,
        plan: to.id,
        amountCents: to.priceCents,
        billingReason: 'subscription_update',
      };
      await d.deliver({ id: id('evt'), type: 'invoice.paid', subscriptionId: subId, paidInvoice: invoice });
      return invoice;
    },

    async scheduleDowngrade(subId: string, to: Plan) {
      await db.update(localSubscriptions).set({ pendingPlan: to.id }).where(eq(localSubscriptions.id, subId));
      await d.deliver({ id: id('evt'), type: 'customer.subscription.updated', subscriptionId: subId });
    },

    async cancelAtPeriodEnd(subId: string) {
      await db
        .update(localSubscriptions)
        .set({ cancelAtPeriodEnd: true })
        .where(eq(localSubscriptions.id, subId));
      await d.deliver({ id: id('evt'), type: 'customer.subscription.updated', subscriptionId: subId });
    },

    async cancelNow(subId: string) {
      await db.update(localSubscriptions).set({ status: 'canceled' }).where(eq(localSubscriptions.id, subId));
      await d.deliver({ id: id('evt'), type: 'customer.subscription.deleted', subscriptionId: subId });
    },

    async chargeCrowns(user: UserRow, crowns: number, amountCents: number): Promise<CrownPayment> {
      await savedCard(user.id);
      const payment: CrownPayment = { id: id('pi'), userId: user.id, crowns, amountCents };
      await d.deliver({ id: id('evt'), type: 'payment_intent.succeeded', crownPayment: payment });
      return payment;
    },

    async listPaymentMethods(user: UserRow) {
      const rows = await db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, user.id), eq(paymentMethods.provider, 'local')))
        .orderBy(desc(paymentMethods.id));
      return rows.map((r) => ({ brand: r.brand, last4: r.last4, expMonth: r.expMonth, expYear: r.expYear }));
    },
  };

  return {
    ...provider,
    name: 'local' as const,

    /** An open or paid session; like a provider's, an unpaid one expires after a day. */
    async session(sessionId: string): Promise<LocalSession | undefined> {
      if (!/^cs_local_[\w-]{10,40}$/.test(sessionId)) return undefined;
      const [row] = await db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId))
        .limit(1);
      if (
        row &&
        row.status !== 'complete' &&
        now().getTime() - row.createdAt.getTime() > SESSION_LIFETIME_MS
      ) {
        return undefined;
      }
      return row;
    },

    /** The hosted page's form post: judge the card like the provider would. */
    async submitCard(session: LocalSession, input: CardInput): Promise<SubmitResult> {
      if (session.status === 'complete') return { kind: 'complete' };
      const outcome = judgeCard(input, now());
      if (outcome.kind === 'declined') return outcome;
      if (outcome.kind === 'requires_action') {
        await db
          .update(localCheckoutSessions)
          .set({
            status: 'requires_action',
            cardBrand: outcome.card.brand,
            cardLast4: outcome.card.last4,
            cardExpMonth: outcome.card.expMonth,
            cardExpYear: outcome.card.expYear,
          })
          .where(eq(localCheckoutSessions.id, session.id));
        return { kind: 'requires_action' };
      }
      return complete(session, outcome.card);
    },

    /** The 3-D Secure step: the cardholder confirms (the payment goes through) or fails it. */
    async authenticate(session: LocalSession, approve: boolean): Promise<SubmitResult> {
      if (session.status === 'complete') return { kind: 'complete' };
      if (session.status !== 'requires_action' || !session.cardLast4) {
        return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
      }
      await db
        .update(localCheckoutSessions)
        .set({ status: 'open', cardBrand: null, cardLast4: null, cardExpMonth: null, cardExpYear: null })
        .where(eq(localCheckoutSessions.id, session.id));
      if (!approve)
        return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
      return complete(session, {
        brand: session.cardBrand ?? 'visa',
        last4: session.cardLast4,
        expMonth: session.cardExpMonth ?? 12,
        expYear: session.cardExpYear ?? now().getUTCFullYear(),
      });
    },

    /**
     * Starts the user's next billing cycle now (for trying and testing renewals): a cancellation ends the
     * subscription, a scheduled downgrade takes effect, and the cycle's invoice is paid with the saved card.
     */
    async advanceCycle(userId: number): Promise<{ ended: boolean; plan: PlanId | null }> {
      const sub = await activeSubscriptionOf(userId);
      if (!sub) throw conflict(BILLING_MESSAGES.noSubscription);
      if (sub.cancelAtPeriodEnd) {
        await provider.cancelNow(sub.id);
        return { ended: true, plan: null };
      }
      const plan = PLANS[(sub.pendingPlan ?? sub.plan) as PlanId];
      const periodEnd = addMonth(new Date(Math.max(sub.currentPeriodEnd.getTime(), now().getTime())));
      await db
        .update(localSubscriptions)
        .set({ plan: plan.id, pendingPlan: null, currentPeriodEnd: periodEnd, status: 'active' })
        .where(eq(localSubscriptions.id, sub.id));
      await d.deliver({
        id: id('evt'),
        type: 'invoice.paid',
        subscriptionId: sub.id,
        paidInvoice: {
          id: id('in'),
          userId,
          customerId: localCustomerId(userId),
          subscriptionId: sub.id,
          plan: plan.id,
          amountCents: plan.priceCents,
          billingReason: 'subscription_cycle',
        },
      });
      return { ended: false, plan: plan.id };
    },
  };
}
export type LocalProvider = ReturnType<typeof createLocalProvider>;
