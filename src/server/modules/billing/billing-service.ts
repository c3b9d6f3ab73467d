import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  amountChangedMessage,
  BILLING_MESSAGES,
  type BillingHistoryResponse,
  type ChangeSubscriptionBody,
  type PaymentMethodView,
  type PlanChangePreview,
  type PurchaseCrownsResponse,
} from '../../../shared/api/billing';
import type { PublicUser } from '../../../shared/api/user';
import { formatCents, PLANS, type PlanId, planByLookupKey } from '../../../shared/plans';
import type { Db } from '../../db/client';
import { payments, subscriptions, users } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { toPublicUser, type UserRow } from '../auth/user-view';
import { withBillingClaim } from './billing-claims';
import { notDuplicate } from './duplicate-subscriptions';
import type { Fulfilment } from './fulfilment';
import type { LocalProvider } from './local-provider';
import { ENTITLED_STATUSES, type PaymentProvider } from './payment-provider';
import { planChangePreview } from './plan-change-preview';

const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** Subscriptions, crown purchases and payment methods, over whichever provider the config chose. */
export function createBillingService(d: {
  db: Db;
  provider: PaymentProvider;
  fulfilment: Fulfilment;
  /** Present when the local test provider is the provider (it can advance billing cycles). */
  local?: LocalProvider;
}) {
  const { db, provider, fulfilment } = d;

  const freshUser = async (userId: number): Promise<UserRow> => {
    const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!row) throw notFound('User not found');
    return row;
  };

  /** The subscription that gives the user their plan now, from our mirror. */
  const currentSubscription = async (userId: number) =>
    (
      await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            eq(subscriptions.provider, provider.name),
            inArray(subscriptions.status, [...ENTITLED_STATUSES]),
            notDuplicate(),
          ),
        )
        .orderBy(desc(subscriptions.currentPeriodEnd))
        .limit(1)
    )[0];

  /** Re-reads the provider after a change we asked for and mirrors it (the webhook repeats it harmlessly). */
  const resync = async (subscriptionId: string) => fulfilment.fulfil(provider, { subscriptionId });

  return {
    /**
     * One checkout at a time per user (the billing claim, decision 157): the plan is read after the claim
     * (not from the request's user row, read before any race), and the provider, under the claim, refuses
     * when it already holds a subscription and leaves only the new session payable. A concurrent second
     * request gets the claim's 409.
     */
    async createCheckout(user: UserRow, lookupKey: string): Promise<{ url: string }> {
      const plan = planByLookupKey(lookupKey);
      if (!plan) throw badRequest(BILLING_MESSAGES.unknownPlan);
      if (user.subscriptionType) throw conflict(BILLING_MESSAGES.alreadySubscribed);
      return withBillingClaim(db, user.id, async () => {
        const fresh = await freshUser(user.id);
        if (fresh.subscriptionType) throw conflict(BILLING_MESSAGES.alreadySubscribed);
        return { url: await provider.createCheckout(fresh, plan) };
      });
    },

    async purchaseCrowns(
      user: UserRow,
      amount: number,
      idempotencyKey: string = randomUUID(),
    ): Promise<PurchaseCrownsResponse> {
      if (!user.subscriptionType) throw forbidden(BILLING_MESSAGES.crownsNeedSubscription);
      const plan = PLANS[user.subscriptionType as PlanId];
      // Integer cents: 1000 crowns at $0.50 is exactly 50000, never 49999.99.
      const totalCost = amount * plan.crownPriceCents;
      // The provider takes the money once per key (decision 092); the grant is once per payment id.
      const payment = await provider.chargeCrowns(
        user,
        amount,
        totalCost,
        `crowns:${user.id}:${idempotencyKey}`,
      );
      await fulfilment.fulfil(provider, { crownPayment: payment });
      return { totalCost, user: toPublicUser(await freshUser(user.id)) };
    },

    /**
     * One change at a time per user (the billing claim, decision 090): the subscription is read after the
     * claim is taken, so a second upgrade racing the first sees Unlimited (or the claim) and gets a 409.
     */
    changeSubscription: (user: UserRow, body: ChangeSubscriptionBody): Promise<{ message: string }> =>
      withBillingClaim(db, user.id, async (attempt) => {
        const sub = await currentSubscription(user.id);
        if (!sub) throw conflict(BILLING_MESSAGES.noSubscription);
        if (body.type === 'upgrade') {
          if (sub.plan !== 'pro') throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
          const to = PLANS.unlimited;
          // The amount is computed now, under the claim, never taken from the browser or an old preview
          // (decision 250); what the user confirmed only has to agree with it.
          const quote = await provider.previewUpgrade(sub.providerSubscriptionId, to, new Date());
          if (body.expectedAmountCents !== undefined && body.expectedAmountCents !== quote.amountDueCents) {
            throw conflict(amountChangedMessage(quote.amountDueCents), 'amount_changed');
          }
          // Per attempt, not per period: a declined attempt must not be replayed to the next one (Stripe
          // saves a decline under its key). Attempts are one at a time (the claim) and the provider
          // refuses to upgrade a subscription already upgraded, so no period is charged twice.
          const invoice = await provider.upgrade(sub.providerSubscriptionId, to, `upgrade:${attempt}`, quote);
          await fulfilment.fulfil(provider, {
            subscriptionId: sub.providerSubscriptionId,
            paidInvoice: invoice,
          });
          return {
            message: `Upgraded to ${to.name}: ${formatCents(invoice.amountCents)} was charged and ${to.allowance.crowns} crowns were added to your balance.`,
          };
        }
        if (body.type === 'downgrade') {
          if (sub.plan !== 'unlimited') throw conflict(BILLING_MESSAGES.downgradeOnlyFromUnlimited);
          if (sub.pendingPlan === 'pro') throw conflict(BILLING_MESSAGES.downgradeAlreadyScheduled);
          if (sub.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCanceling);
          await provider.scheduleDowngrade(sub.providerSubscriptionId, PLANS.pro);
          await resync(sub.providerSubscriptionId);
          return {
            message: `Your plan changes to ${PLANS.pro.name} at your next billing cycle on ${longDate(sub.currentPeriodEnd)}. Nothing is charged now and you keep your crowns.`,
          };
        }
        if (sub.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCanceling);
        await provider.cancelAtPeriodEnd(sub.providerSubscriptionId);
        await resync(sub.providerSubscriptionId);
        return {
          message: `Your subscription is canceled. You keep access until ${longDate(sub.currentPeriodEnd)}; then your account returns to the free trial.`,
        };
      }),

    /**
     * What a change would cost and give if confirmed now (decision 250), from the provider's subscription.
     * Only a figure to show: the change recomputes it and charges its own.
     */
    async previewChange(user: UserRow, body: ChangeSubscriptionBody): Promise<PlanChangePreview> {
      const sub = await currentSubscription(user.id);
      if (!sub) throw conflict(BILLING_MESSAGES.noSubscription);
      return planChangePreview(provider, sub, body, new Date());
    },

    /** The user's payments, newest first (the last 50: a history to check charges against, not an export). */
    async paymentHistory(user: UserRow): Promise<BillingHistoryResponse> {
      const rows = await db
        .select()
        .from(payments)
        .where(eq(payments.userId, user.id))
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(50);
      return {
        payments: rows.map((r) => ({
          kind: r.kind,
          amountCents: r.amountCents,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },

    paymentMethods: (user: UserRow): Promise<PaymentMethodView[]> => provider.listPaymentMethods(user),

    /** Local provider only: Stripe runs its own clock (use a Stripe test clock there). */
    async advanceCycle(userId: number): Promise<{ message: string; user: PublicUser }> {
      if (!d.local) throw new AppError(409, 'stripe_configured', BILLING_MESSAGES.cycleNeedsLocalProvider);
      await freshUser(userId);
      const result = await d.local.advanceCycle(userId);
      const user = toPublicUser(await freshUser(userId));
      const message = result.ended
        ? 'The subscription ended at the close of its billing period; the account is back on the free trial.'
        : `A new billing cycle started on the ${PLANS[result.plan!].name} plan and its allowance was granted.`;
      return { message, user };
    },

    /** Account deletion: end the subscription at the provider before the rows go. */
    async cancelForDeletion(user: UserRow): Promise<void> {
      const sub = await currentSubscription(user.id);
      if (sub) await provider.cancelNow(sub.providerSubscriptionId);
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
