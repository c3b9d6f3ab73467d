import { and, eq, inArray } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import { localSubscriptions } from '../../db/schema';
import { conflict } from '../../errors';
import { addMonth } from './billing-period';
import type { Tx } from './ledger-service';
import {
  chargeInvoice,
  commit,
  type LocalContext,
  localCustomerId,
  localId,
  subscriptionRow,
} from './local-context';
import { ENTITLED_STATUSES, type SubscriptionSnapshot } from './payment-provider';

/**
 * A local subscription's life after its checkout: read as a snapshot, a downgrade scheduled, cancelled at
 * the period's end or now, and renewed (advanceCycle). The upgrade is in local-upgrade.ts.
 */

export async function retrieveSubscription(
  ctx: LocalContext,
  subId: string,
  tx?: Tx,
): Promise<SubscriptionSnapshot> {
  const row = await subscriptionRow(ctx, subId, tx);
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
}

/** A subscription's row change announced by customer.subscription.{updated,deleted}. */
const updateSubscription = (
  ctx: LocalContext,
  subId: string,
  set: Partial<typeof localSubscriptions.$inferInsert>,
  type = 'customer.subscription.updated',
) =>
  commit(ctx, async (tx, emit) => {
    await tx.update(localSubscriptions).set(set).where(eq(localSubscriptions.id, subId));
    emit({ type, subscriptionId: subId });
  });

export const scheduleDowngrade = (ctx: LocalContext, subId: string, to: Plan) =>
  updateSubscription(ctx, subId, { pendingPlan: to.id });

export const cancelAtPeriodEnd = (ctx: LocalContext, subId: string) =>
  updateSubscription(ctx, subId, { cancelAtPeriodEnd: true });

export const cancelNow = (ctx: LocalContext, subId: string) =>
  updateSubscription(ctx, subId, { status: 'canceled' }, 'customer.subscription.deleted');

const activeSubscriptionOf = async (ctx: LocalContext, userId: number) =>
  (
    await ctx.db
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

/**
 * Starts the user's next billing cycle now (for trying and testing renewals): a cancellation ends the
 * subscription, a scheduled downgrade takes effect, and the cycle's invoice is paid with the saved card.
 */
export async function advanceCycle(
  ctx: LocalContext,
  userId: number,
): Promise<{ ended: boolean; plan: PlanId | null }> {
  const sub = await activeSubscriptionOf(ctx, userId);
  if (!sub) throw conflict(BILLING_MESSAGES.noSubscription);
  if (sub.cancelAtPeriodEnd) {
    await cancelNow(ctx, sub.id);
    return { ended: true, plan: null };
  }
  const plan = PLANS[(sub.pendingPlan ?? sub.plan) as PlanId];
  const periodStart = new Date(Math.max(sub.currentPeriodEnd.getTime(), ctx.now().getTime()));
  const periodEnd = addMonth(periodStart);
  await commit(ctx, async (tx, emit) => {
    // Conditional on the period read above: of two advances racing (admin API, CLI), one charges.
    const [advanced] = await tx
      .update(localSubscriptions)
      .set({
        plan: plan.id,
        pendingPlan: null,
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        status: 'active',
      })
      .where(
        and(
          eq(localSubscriptions.id, sub.id),
          eq(localSubscriptions.currentPeriodEnd, sub.currentPeriodEnd),
          eq(localSubscriptions.status, sub.status),
        ),
      )
      .returning({ id: localSubscriptions.id });
    if (!advanced) throw conflict(BILLING_MESSAGES.changeInProgress);
    await chargeInvoice(tx, emit, {
      id: localId('in'),
      userId,
      customerId: localCustomerId(userId),
      subscriptionId: sub.id,
      plan: plan.id,
      amountCents: plan.priceCents,
      billingReason: 'subscription_cycle',
    });
  });
  return { ended: false, plan: plan.id };
}
