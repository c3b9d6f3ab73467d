import { and, eq, inArray, ne } from 'drizzle-orm';
import { amountChangedMessage, BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import { localPayments, localSubscriptions } from '../../db/schema';
import { conflict } from '../../errors';
import { addMonth } from './billing-period';
import {
  chargeInvoice,
  commit,
  keyedId,
  type LocalContext,
  localCustomerId,
  savedCard,
  subscriptionRow,
} from './local-context';
import {
  ENTITLED_STATUSES,
  isEntitled,
  type PaidInvoice,
  type UpgradeQuote,
  upgradeInvoice,
} from './payment-provider';
import { prorateUpgrade } from './proration';

/** The local provider's prorated upgrade (decision 250): its quote, and the change charged at that quote. */

/** The upgrade's price at `at` from the provider's row (decision 250): one arithmetic, proration.ts. */
const quoteOf = (row: typeof localSubscriptions.$inferSelect, to: Plan, at: Date): UpgradeQuote => {
  if (row.plan === to.id || !isEntitled(row.status)) {
    throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
  }
  const proration = prorateUpgrade({
    fromPriceCents: PLANS[row.plan as PlanId].priceCents,
    toPriceCents: to.priceCents,
    periodStart: row.currentPeriodStart,
    periodEnd: row.currentPeriodEnd,
    at,
  });
  return { at, ...proration, newPeriodEnd: addMonth(at) };
};

export async function previewUpgrade(
  ctx: LocalContext,
  subId: string,
  to: Plan,
  at: Date,
): Promise<UpgradeQuote> {
  return quoteOf(await subscriptionRow(ctx, subId), to, at);
}

export const upgrade = (
  ctx: LocalContext,
  subId: string,
  to: Plan,
  idempotencyKey: string,
  quote: UpgradeQuote,
): Promise<PaidInvoice> =>
  commit(ctx, async (tx, emit) => {
    const invoiceId = keyedId('in', idempotencyKey);
    const [earlier] = await tx.select().from(localPayments).where(eq(localPayments.id, invoiceId));
    // A retry of an upgrade that went through: its invoice again, nothing charged (as at Stripe).
    if (earlier) {
      return upgradeInvoice({
        id: earlier.id,
        userId: earlier.userId,
        customerId: localCustomerId(earlier.userId),
        subscriptionId: subId,
        to,
        amountCents: earlier.amountCents,
      });
    }
    const row = await subscriptionRow(ctx, subId, tx);
    await savedCard(ctx, row.userId, tx);
    // The amount from the row as this transaction reads it: when the period moved since the quote (a
    // renewal in between), the quote is not what would be charged, and nothing is.
    const due = quoteOf(row, to, quote.at);
    if (due.amountDueCents !== quote.amountDueCents) {
      throw conflict(amountChangedMessage(due.amountDueCents), 'amount_changed');
    }
    // Like Stripe with billing_cycle_anchor=now and always_invoice: a new cycle starts at the quote's
    // moment, charged the new plan's month less the unused part of the old period.
    // Conditional on the plan and the period read above: of two upgrades racing here, the second matches
    // no row.
    const [changed] = await tx
      .update(localSubscriptions)
      .set({
        plan: to.id,
        pendingPlan: null,
        cancelAtPeriodEnd: false,
        currentPeriodStart: quote.at,
        currentPeriodEnd: due.newPeriodEnd,
      })
      .where(
        and(
          eq(localSubscriptions.id, subId),
          ne(localSubscriptions.plan, to.id),
          eq(localSubscriptions.currentPeriodEnd, row.currentPeriodEnd),
          inArray(localSubscriptions.status, [...ENTITLED_STATUSES]),
        ),
      )
      .returning({ id: localSubscriptions.id });
    if (!changed) throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
    const invoice = upgradeInvoice({
      id: invoiceId,
      userId: row.userId,
      customerId: localCustomerId(row.userId),
      subscriptionId: subId,
      to,
      amountCents: due.amountDueCents,
    });
    await chargeInvoice(tx, emit, invoice);
    return invoice;
  });
