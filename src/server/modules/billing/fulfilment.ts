import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { PLANS } from '../../../shared/plans';
import type { Db } from '../../db/client';
import { billingCustomers, paymentEvents, payments, subscriptions, users } from '../../db/schema';
import {
  type BillingLog,
  detectDuplicate,
  isRecordedDuplicate,
  notDuplicate,
  reopenRefund,
  settleDuplicates,
} from './duplicate-subscriptions';
import { type Currency, grant, type Tx } from './ledger-service';
import {
  type CrownPayment,
  ENTITLED_STATUSES,
  type PaidInvoice,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderName,
  type SubscriptionSnapshot,
} from './payment-provider';

/**
 * The one fulfilment routine both providers go through. Every effect is idempotent on its own (grants and
 * payments by their unique reference, the subscription mirror by being rewritten from a fresh read), and
 * each call runs in one transaction that first locks the user's row, so billing changes of one user are
 * applied one after another.
 */
export interface Effects {
  customer?: { customerId: string; userId: number };
  /** Re-read this subscription from the provider (under the user's lock) and mirror it. */
  subscriptionId?: string;
  paidInvoice?: PaidInvoice;
  crownPayment?: CrownPayment;
}

/**
 * FOR NO KEY UPDATE, not FOR UPDATE (decision 159): it serialises billing changes of one user just as well
 * (it conflicts with itself and with every UPDATE of the row), but not with the FOR KEY SHARE lock that
 * every foreign key check on users takes (local_payments, payments, credit_ledger, sessions...). With FOR
 * UPDATE, a purchase's foreign key check and this lock, both walking the row's chain of updated versions
 * while spends updated it, could each hold a version the other waited for: a deadlock, a 500.
 */
const lockUser = async (tx: Tx, userId: number): Promise<boolean> => {
  const rows = await tx.execute(sql`select id from users where id = ${userId} for no key update`);
  const list = (rows as unknown as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[]);
  return list.length > 0;
};

async function userOfCustomer(tx: Tx, provider: ProviderName, customerId: string | null) {
  if (!customerId) return null;
  const [row] = await tx
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerId, customerId)))
    .limit(1);
  return row?.userId ?? null;
}

/**
 * Sets the user's plan columns from their subscriptions: the entitled one with the latest period wins. A
 * duplicate (decision 157) never counts, even in the moment before the provider has ended it.
 */
export async function recomputeUser(tx: Tx, userId: number): Promise<void> {
  const [best] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, [...ENTITLED_STATUSES]),
        notDuplicate(),
      ),
    )
    .orderBy(desc(subscriptions.currentPeriodEnd))
    .limit(1);
  if (best) {
    await tx
      .update(users)
      .set({
        subscriptionType: best.plan,
        subscriptionStatus: best.status,
        currentPeriodEnd: best.currentPeriodEnd,
        cancelAtPeriodEnd: best.cancelAtPeriodEnd,
        pendingPlan: best.pendingPlan,
      })
      .where(eq(users.id, userId));
    return;
  }
  const [any] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  // hasSubscription is `subscription_type IS NOT NULL`: a subscription that truly ended clears it.
  await tx
    .update(users)
    .set({
      subscriptionType: null,
      subscriptionStatus: any ? 'canceled' : 'none',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pendingPlan: null,
    })
    .where(eq(users.id, userId));
}

/** Rewrites our mirror of one subscription from a fresh read of the provider. */
async function mirror(tx: Tx, provider: ProviderName, userId: number, snap: SubscriptionSnapshot) {
  const values = {
    userId,
    provider,
    providerSubscriptionId: snap.id,
    plan: snap.plan,
    status: snap.status,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    pendingPlan: snap.pendingPlan,
    updatedAt: new Date(),
  };
  await tx
    .insert(subscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: [subscriptions.provider, subscriptions.providerSubscriptionId],
      set: values,
    });
}

async function applyEffects(
  tx: Tx,
  paymentProvider: PaymentProvider,
  effects: Effects,
  snap: SubscriptionSnapshot | undefined,
  userId: number,
) {
  const provider = paymentProvider.name;
  if (effects.customer) {
    await tx
      .insert(billingCustomers)
      .values({ userId: effects.customer.userId, provider, customerId: effects.customer.customerId })
      .onConflictDoNothing();
  }
  if (snap) {
    await mirror(tx, provider, userId, snap);
    // Before any grant: a second subscription paid in the same instant is recorded as a duplicate here,
    // under the user's lock, so of two completions applied at once exactly one is kept (decision 157).
    await detectDuplicate(tx, paymentProvider, userId, snap, (other) => mirror(tx, provider, userId, other));
    await recomputeUser(tx, userId);
  }
  const inv = effects.paidInvoice;
  if (inv) {
    const recorded = await tx
      .insert(payments)
      .values({ userId, provider, reference: inv.id, kind: inv.billingReason, amountCents: inv.amountCents })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    // The money of a duplicate is recorded (it was taken) and given back by settleDuplicates; it grants
    // nothing. A charge of it seen for the first time opens its refund step again.
    if (inv.subscriptionId && (await isRecordedDuplicate(tx, provider, inv.subscriptionId))) {
      if (recorded.length > 0) await reopenRefund(tx, provider, inv.subscriptionId);
      return;
    }
    const allowance = PLANS[inv.plan].allowance;
    const reason = inv.billingReason === 'subscription_update' ? 'upgrade' : 'allowance';
    const parts: Array<[Currency, number]> = [
      ['mix', allowance.mixCredits],
      ['mastering', allowance.masteringCredits],
      ['crown', allowance.crowns],
    ];
    for (const [currency, amount] of parts) {
      await grant(tx, { userId, currency, amount, reason, reference: `${provider}:${inv.id}:${currency}` });
    }
  }
  const pay = effects.crownPayment;
  if (pay) {
    await tx
      .insert(payments)
      .values({ userId, provider, reference: pay.id, kind: 'crowns', amountCents: pay.amountCents })
      .onConflictDoNothing();
    await grant(tx, {
      userId,
      currency: 'crown',
      amount: pay.crowns,
      reason: 'crown_purchase',
      reference: `${provider}:${pay.id}:crown`,
    });
  }
}

const quiet: BillingLog = { warn: () => {} };

export function createFulfilment(db: Db, log: BillingLog = quiet) {
  /** Which user the effects are about: named directly, or through the provider's customer id. */
  const resolveUser = async (
    tx: Tx,
    provider: ProviderName,
    e: Effects,
    snap: SubscriptionSnapshot | undefined,
  ): Promise<number | null> =>
    e.customer?.userId ??
    e.crownPayment?.userId ??
    snap?.userId ??
    e.paidInvoice?.userId ??
    (await userOfCustomer(tx, provider, snap?.customerId ?? null)) ??
    (await userOfCustomer(tx, provider, e.paidInvoice?.customerId ?? null));

  /**
   * Applies effects inside `tx`. A first read of the subscription tells whose it is; once that user's row
   * is locked it is read again, so two events of one user applied at the same moment cannot leave the
   * older state last.
   */
  const fulfilIn = async (tx: Tx, provider: PaymentProvider, effects: Effects): Promise<number | null> => {
    const first = effects.subscriptionId
      ? await provider.retrieveSubscription(effects.subscriptionId, tx)
      : undefined;
    const userId = await resolveUser(tx, provider.name, effects, first);
    // A deleted account (or a customer that is not ours): nothing to apply.
    if (userId === null || !(await lockUser(tx, userId))) return null;
    const snap = first ? await provider.retrieveSubscription(first.id, tx) : undefined;
    await applyEffects(tx, provider, effects, snap, userId);
    return userId;
  };

  /** Ends and refunds pending duplicates about these effects, after the commit (decision 157). */
  const settle = (provider: PaymentProvider, effects: Effects) =>
    settleDuplicates({
      db,
      provider,
      log,
      subscriptionIds: [effects.subscriptionId, effects.paidInvoice?.subscriptionId],
      remirror: (subscriptionId) => db.transaction((tx) => fulfilIn(tx, provider, { subscriptionId })),
    });

  /** Stores the event id and applies its effects in one transaction: a redelivery changes nothing. */
  async function applyOnce(
    provider: PaymentProvider,
    event: ProviderEvent,
  ): Promise<'applied' | 'duplicate'> {
    const [seen] = await db
      .select({ id: paymentEvents.eventId })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, provider.name), eq(paymentEvents.eventId, event.id)))
      .limit(1);
    if (seen) return 'duplicate';
    return db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentEvents)
        .values({ provider: provider.name, eventId: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.eventId });
      if (stored.length === 0) return 'duplicate';
      await fulfilIn(tx, provider, {
        customer: event.customer,
        subscriptionId: event.subscriptionId,
        paidInvoice: event.paidInvoice,
        crownPayment: event.crownPayment,
      });
      return 'applied';
    });
  }

  return {
    /** Applies effects learned from the provider's own API answer (the webhook repeats them harmlessly). */
    async fulfil(provider: PaymentProvider, effects: Effects): Promise<number | null> {
      const userId = await db.transaction((tx) => fulfilIn(tx, provider, effects));
      await settle(provider, effects);
      return userId;
    },

    /**
     * Applies a verified provider event once: its id is stored in the same transaction as its effects, so a
     * redelivery (or a concurrent duplicate) finds the row and changes nothing. The subscription is re-read
     * from the provider, so the mirror ends in the provider's current state whatever the order.
     */
    async applyEvent(provider: PaymentProvider, event: ProviderEvent): Promise<'applied' | 'duplicate'> {
      const outcome = await applyOnce(provider, event);
      // Also for a redelivery: it is how a crash between the provider calls of a duplicate is repaired.
      await settle(provider, event);
      return outcome;
    },
  };
}
export type Fulfilment = ReturnType<typeof createFulfilment>;
