import { and, desc, eq, inArray } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { localPayments, paymentMethods } from '../../db/schema';
import { AppError } from '../../errors';
import type { UserRow } from '../auth/user-view';
import { commit, keyedId, type LocalContext, savedCard } from './local-context';
import type { CrownPayment, ProviderRefund } from './payment-provider';

/** The local provider's money outside a subscription's cycle: refunds, crown purchases, saved cards. */

/** The kinds of charge a subscription makes (its invoices), as at Stripe. */
const SUBSCRIPTION_CHARGES = ['subscription_create', 'subscription_cycle', 'subscription_update'] as const;

/**
 * Gives back every charge of the subscription, once: a refund's id comes from the charge's, so a repeat
 * (or two at once: the primary key) finds the refund already there.
 */
export const refundSubscription = (ctx: LocalContext, subId: string): Promise<ProviderRefund[]> =>
  commit(ctx, async (tx) => {
    const charges = await tx
      .select()
      .from(localPayments)
      .where(
        and(eq(localPayments.subscriptionId, subId), inArray(localPayments.kind, [...SUBSCRIPTION_CHARGES])),
      )
      .orderBy(localPayments.createdAt);
    const refunds: ProviderRefund[] = [];
    for (const charge of charges) {
      const refund = {
        id: keyedId('re', charge.id),
        invoiceId: charge.id,
        amountCents: charge.amountCents,
      };
      await tx
        .insert(localPayments)
        .values({
          id: refund.id,
          userId: charge.userId,
          kind: 'refund',
          amountCents: charge.amountCents,
          subscriptionId: subId,
        })
        .onConflictDoNothing({ target: localPayments.id });
      refunds.push(refund);
    }
    return refunds;
  });

export const chargeCrowns = (
  ctx: LocalContext,
  user: UserRow,
  crowns: number,
  amountCents: number,
  idempotencyKey: string,
): Promise<CrownPayment> =>
  commit(ctx, async (tx, emit) => {
    await savedCard(ctx, user.id, tx);
    const payment: CrownPayment = {
      id: keyedId('pi', idempotencyKey),
      userId: user.id,
      crowns,
      amountCents,
    };
    const inserted = await tx
      .insert(localPayments)
      .values({ id: payment.id, userId: user.id, kind: 'crowns', amountCents, crowns })
      .onConflictDoNothing({ target: localPayments.id })
      .returning({ id: localPayments.id });
    if (inserted.length === 0) {
      // The same key again (a retry, a double click): the first payment, charged once.
      const [earlier] = await tx.select().from(localPayments).where(eq(localPayments.id, payment.id));
      if (earlier?.userId !== user.id || earlier.crowns !== crowns || earlier.amountCents !== amountCents) {
        throw new AppError(409, 'idempotency_key_reused', BILLING_MESSAGES.idempotencyKeyReused);
      }
      return payment;
    }
    emit({ type: 'payment_intent.succeeded', crownPayment: payment });
    return payment;
  });

export async function listPaymentMethods(ctx: LocalContext, user: UserRow) {
  const rows = await ctx.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, user.id), eq(paymentMethods.provider, 'local')))
    .orderBy(desc(paymentMethods.id));
  return rows.map((r) => ({ brand: r.brand, last4: r.last4, expMonth: r.expMonth, expYear: r.expYear }));
}
