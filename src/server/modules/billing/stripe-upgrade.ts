import type Stripe from 'stripe';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import type { Plan } from '../../../shared/plans';
import { AppError } from '../../errors';
import { type PaidInvoice, type UpgradeQuote, upgradeInvoice } from './payment-provider';
import { firstItem, idOf, type StripeContext } from './stripe-context';
import { call } from './stripe-errors';
import { priceOf } from './stripe-prices';
import { snapshotOf } from './stripe-subscriptions';

/** The prorated upgrade at Stripe (decision 250): Stripe's own quote, and the change charged at it. */

/** How an upgrade changes the subscription, the same in the preview and in the update (decision 250). */
const upgradeTerms = {
  proration_behavior: 'always_invoice',
  billing_cycle_anchor: { type: 'now' },
} as const;

/** The upgrade's paid invoice, its user and customer read from the subscription as Stripe returned it. */
async function paidUpgrade(
  ctx: StripeContext,
  sub: Stripe.Subscription,
  invoiceId: string,
  amountCents: number,
  to: Plan,
): Promise<PaidInvoice> {
  const snapshot = await snapshotOf(ctx, sub);
  return upgradeInvoice({
    id: invoiceId,
    userId: snapshot.userId,
    customerId: snapshot.customerId,
    subscriptionId: sub.id,
    to,
    amountCents,
  });
}

/** The paid invoice of an upgrade Stripe already made (the subscription is on the new price), else a 409. */
async function earlierUpgrade(ctx: StripeContext, sub: Stripe.Subscription, to: Plan): Promise<PaidInvoice> {
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
  return paidUpgrade(ctx, sub, last.id, last.amount_paid, to);
}

/**
 * What the preview and the upgrade start from: the subscription with its latest invoice (the paid invoice
 * of an upgrade already made), its one item, and the price of the plan upgraded to.
 */
async function subscriptionAndPrice(ctx: StripeContext, subscriptionId: string, to: Plan) {
  const sub = await call(() =>
    ctx.stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] }),
  );
  return { sub, item: firstItem(sub), price: await priceOf(ctx, to) };
}

/**
 * Stripe's own figure: the invoice the upgrade would create now, from the upcoming-invoice preview with
 * the very parameters `upgrade` sends (a month of the new price from now, less the unused time of the old
 * one). The credit is the sum of the preview's negative proration lines.
 */
export async function previewUpgrade(
  ctx: StripeContext,
  subscriptionId: string,
  to: Plan,
  at: Date,
): Promise<UpgradeQuote> {
  const { sub, item, price } = await subscriptionAndPrice(ctx, subscriptionId, to);
  const prorationDate = Math.floor(at.getTime() / 1000);
  // Upgraded at Stripe already (an answer lost in a crash): the figure is what that upgrade charged, which
  // `upgrade` then records without charging again.
  if (idOf(item.price) === price) {
    const earlier = await earlierUpgrade(ctx, sub, to);
    return {
      at,
      amountDueCents: earlier.amountCents,
      creditCents: 0,
      unusedSeconds: 0,
      newPeriodEnd: new Date(item.current_period_end * 1000),
    };
  }
  const preview = await call(() =>
    ctx.stripe.invoices.createPreview({
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
}

export async function upgrade(
  ctx: StripeContext,
  subscriptionId: string,
  to: Plan,
  idempotencyKey: string,
  quote: UpgradeQuote,
): Promise<PaidInvoice> {
  const { sub, item, price } = await subscriptionAndPrice(ctx, subscriptionId, to);
  // Already on the new price: an earlier attempt went through at Stripe (and a crash, say, kept us from
  // recording it). Its paid invoice is the answer; updating again would charge a second time.
  if (idOf(item.price) === price) return earlierUpgrade(ctx, sub, to);
  // A new cycle starts now, the unused old time credited (prorated at the quote's moment, so Stripe
  // charges the amount the quote showed), paid at once or not at all. Our idempotency key (not the
  // SDK's per-call one) makes a retry after a crash or timeout return the first answer.
  const updated = await call(() =>
    ctx.stripe.subscriptions.update(
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
  return paidUpgrade(ctx, updated, invoice.id, invoice.amount_paid, to);
}
