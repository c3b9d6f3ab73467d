import Stripe from 'stripe';
import type { ProviderRefund } from './payment-provider';
import { idOf } from './stripe-context';
import { call } from './stripe-errors';

/**
 * Ending a subscription and giving its money back at Stripe, both safe to repeat after a crash and to run
 * twice at once (two deliveries of one webhook on two servers): decision 157.
 */

const ENDED = new Set(['canceled', 'incomplete_expired']);

/** Ends the subscription now; one that has already ended is left as it is. */
export async function cancelSubscriptionNow(stripe: Stripe, id: string): Promise<void> {
  const sub = await call(() => stripe.subscriptions.retrieve(id));
  if (ENDED.has(sub.status)) return;
  try {
    await call(() => stripe.subscriptions.cancel(id));
  } catch (err) {
    // Ended meanwhile by a concurrent attempt: Stripe refuses to cancel it twice, which is what we wanted.
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
    const again = await call(() => stripe.subscriptions.retrieve(id));
    if (!ENDED.has(again.status)) throw err;
  }
}

const live = (r: Stripe.Refund) => r.status !== 'failed' && r.status !== 'canceled';

/**
 * Refunds one payment of one invoice in full. Refunds that already exist on the payment are the answer
 * (an earlier attempt whose answer a crash lost, or one made by hand in the dashboard): money goes back
 * once. Otherwise the refund carries an idempotency key named after the invoice, so two attempts racing
 * past the check get Stripe's one refund.
 */
async function refundPayment(stripe: Stripe, invoiceId: string, intent: string): Promise<ProviderRefund[]> {
  const existing = async () =>
    (await call(() => stripe.refunds.list({ payment_intent: intent, limit: 100 }))).data
      .filter(live)
      .map((r) => ({ id: r.id, invoiceId, amountCents: r.amount }));
  const before = await existing();
  if (before.length > 0) return before;
  try {
    const refund = await call(() =>
      stripe.refunds.create(
        { payment_intent: intent, reason: 'duplicate', metadata: { invoice: invoiceId } },
        { idempotencyKey: `refund:${invoiceId}:${intent}` },
      ),
    );
    return [{ id: refund.id, invoiceId, amountCents: refund.amount }];
  } catch (err) {
    // Refunded between our check and our request (charge_already_refunded): that refund is the answer.
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
    const after = await existing();
    if (after.length === 0) throw err;
    return after;
  }
}

/** Refunds every paid invoice of the subscription, each once. */
export async function refundSubscriptionInvoices(
  stripe: Stripe,
  subscriptionId: string,
): Promise<ProviderRefund[]> {
  const invoices = await call(() =>
    stripe.invoices
      .list({ subscription: subscriptionId, status: 'paid', limit: 100, expand: ['data.payments'] })
      .autoPagingToArray({ limit: 1000 }),
  );
  const refunds: ProviderRefund[] = [];
  for (const invoice of invoices) {
    if (!invoice.id) continue;
    for (const payment of invoice.payments?.data ?? []) {
      const intent = idOf(payment.payment.payment_intent);
      if (payment.status !== 'paid' || !intent) continue;
      refunds.push(...(await refundPayment(stripe, invoice.id, intent)));
    }
  }
  return refunds;
}
