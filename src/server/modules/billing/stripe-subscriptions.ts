import Stripe from 'stripe';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import { AppError, conflict } from '../../errors';
import type { UserRow } from '../auth/user-view';
import { isEntitled, type SubscriptionSnapshot } from './payment-provider';
import { firstItem, idOf, type StripeContext } from './stripe-context';
import { ensureCustomer } from './stripe-customers';
import { call } from './stripe-errors';
import { planOfPrice, priceOf } from './stripe-prices';

/**
 * A Stripe subscription's life: the Checkout Session that starts it, the snapshot we mirror, a downgrade
 * scheduled for the next cycle, a cancellation at the period's end. The upgrade is in stripe-upgrade.ts,
 * ending and refunding one now in stripe-refunds.ts.
 */

/**
 * A downgrade swaps the price with no proration and remembers in the subscription's metadata which plan
 * runs until the period ends: the snapshot reads that plan back until then.
 */
export async function snapshotOf(
  ctx: StripeContext,
  sub: Stripe.Subscription,
): Promise<SubscriptionSnapshot> {
  const item = firstItem(sub);
  const itemPlan = await planOfPrice(ctx, item.price);
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

/**
 * Called under the user's billing claim (decision 157), so two of these never overlap for one user.
 * Stripe, not our mirror, says whether the customer already pays (the webhook of a checkout paid a
 * moment ago may not have arrived). The customer's open sessions are expired *before* the new one is
 * created, so there is no moment with two payable; one paid meanwhile cannot be expired, and then the
 * customer is subscribed and nothing new is opened.
 */
export async function createCheckout(ctx: StripeContext, user: UserRow, plan: Plan) {
  const { stripe } = ctx;
  const customer = await ensureCustomer(ctx, user);
  const price = await priceOf(ctx, plan);
  const alreadySubscribed = () => conflict(BILLING_MESSAGES.alreadySubscribed);
  const paying = async () =>
    (await call(() => stripe.subscriptions.list({ customer, status: 'all', limit: 100 }))).data.some((s) =>
      isEntitled(s.status),
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
      success_url: `${ctx.publicOrigin}/settings?checkout=success`,
      cancel_url: `${ctx.publicOrigin}/checkout?plan=${plan.id}`,
    }),
  );
  if (!session.url) throw new AppError(502, 'provider_error', BILLING_MESSAGES.providerUnavailable);
  return session.url;
}

export const retrieveSubscription = async (ctx: StripeContext, id: string) =>
  snapshotOf(ctx, await call(() => ctx.stripe.subscriptions.retrieve(id)));

export async function scheduleDowngrade(ctx: StripeContext, subscriptionId: string, to: Plan) {
  const sub = await call(() => ctx.stripe.subscriptions.retrieve(subscriptionId));
  const item = firstItem(sub);
  const current = await snapshotOf(ctx, sub);
  const price = await priceOf(ctx, to);
  // The next invoice is at the new price; until the period ends, the metadata keeps the old plan.
  await call(() =>
    ctx.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price }],
      proration_behavior: 'none',
      metadata: { downgrade_from: current.plan, downgrade_until: String(item.current_period_end) },
    }),
  );
}

export async function cancelAtPeriodEnd(ctx: StripeContext, subscriptionId: string) {
  await call(() => ctx.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
}
