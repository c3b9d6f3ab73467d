import {
  MONTH,
  newId,
  nowSec,
  type Obj,
  priceById,
  type StandInContext,
  values,
} from './stripe-stand-in-store';

/**
 * What the stand-in's Stripe does with money on its own: invoices (each paid by a PaymentIntent), the
 * proration of a cycle started now, a checkout the customer pays, a renewal. It models Stripe, so it keeps
 * its own arithmetic rather than proration.ts: the tests compare the app's figures against it.
 */

export const itemOf = (sub: Obj) => (sub.items as { data: Obj[] }).data[0]!;

export const invoiceFor = (
  ctx: StandInContext,
  sub: Obj,
  amount: number,
  reason: string,
  prorationLines: Obj[] = [],
): Obj => {
  const { invoices, paymentIntents } = ctx.state;
  const price = itemOf(sub).price as Obj;
  const id = newId('in');
  // As at Stripe since 2025-03: the money of an invoice is a PaymentIntent, named by its invoice payments.
  const pi = {
    id: newId('pi'),
    object: 'payment_intent',
    amount,
    amount_received: amount,
    amount_refunded: 0,
    status: 'succeeded',
    customer: sub.customer,
    metadata: {},
  };
  paymentIntents.set(pi.id, pi);
  const invoice = {
    id,
    object: 'invoice',
    customer: sub.customer,
    subscription_id: sub.id,
    status: 'paid',
    amount_paid: amount,
    billing_reason: reason,
    payments: {
      object: 'list',
      data: [
        {
          id: newId('inpay'),
          object: 'invoice_payment',
          invoice: id,
          status: 'paid',
          amount_paid: amount,
          payment: { type: 'payment_intent', payment_intent: pi.id },
        },
      ],
    },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: sub.id, metadata: sub.metadata },
    },
    lines: {
      object: 'list',
      data: [
        // As at Stripe: the credit for the unused old price comes first, marked as a proration.
        ...prorationLines,
        {
          amount: amount + prorationLines.reduce((sum, l) => sum - (l.amount as number), 0),
          pricing: { type: 'price_details', price_details: { price: price.id } },
          parent: { type: 'subscription_item_details', subscription_item_details: { proration: false } },
        },
      ],
    },
  };
  invoices.set(invoice.id, invoice);
  sub.latest_invoice = invoice.id;
  return invoice;
};

/**
 * A new cycle anchored at `at` on `price`: with always_invoice, Stripe credits the unused part of the old
 * price (seconds left over the period's length, to the cent) on the invoice it takes at once.
 */
export const cycleFromNow = (sub: Obj, price: Obj, at: number, behavior: string | undefined) => {
  const item = itemOf(sub);
  const start = item.current_period_start as number;
  const end = item.current_period_end as number;
  const old = item.price as Obj;
  const unused = Math.min(end - start, Math.max(0, end - at));
  const credit =
    behavior === 'always_invoice' ? Math.round(((old.unit_amount as number) * unused) / (end - start)) : 0;
  const prorationLines: Obj[] =
    credit > 0
      ? [
          {
            amount: -credit,
            period: { start: at, end },
            pricing: { type: 'price_details', price_details: { price: old.id } },
            parent: { type: 'subscription_item_details', subscription_item_details: { proration: true } },
          },
        ]
      : [];
  return { amount_due: Math.max(0, (price.unit_amount as number) - credit), prorationLines };
};

/** The customer pays the checkout at Stripe: subscription, card and first invoice now exist. */
export function payCheckout(ctx: StandInContext, sessionId: string) {
  const { sessions, subscriptions } = ctx.state;
  const session = sessions.get(sessionId)!;
  if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
  const customer = session.customer as string;
  const card = {
    id: newId('pm'),
    object: 'payment_method',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
  };
  ctx.cards.set(customer, [card]);
  const price = priceById(ctx, (values(session.line_items)[0] as Obj).price)!;
  const sub: Obj = {
    id: newId('sub'),
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    metadata: { ...((session.subscription_data as Obj | undefined)?.metadata as Obj) },
    items: {
      object: 'list',
      data: [
        { id: newId('si'), price, current_period_start: nowSec(), current_period_end: nowSec() + MONTH },
      ],
    },
    default_payment_method: card.id,
  };
  subscriptions.set(sub.id as string, sub);
  Object.assign(session, { status: 'complete', subscription: sub.id, payment_status: 'paid' });
  return {
    session,
    subscription: sub,
    invoice: invoiceFor(ctx, sub, price.unit_amount as number, 'subscription_create'),
  };
}

/** Stripe starts the next cycle of a subscription and pays its invoice. */
export function renew(ctx: StandInContext, subscriptionId: string) {
  const sub = ctx.state.subscriptions.get(subscriptionId)!;
  const item = itemOf(sub);
  item.current_period_start = item.current_period_end;
  item.current_period_end = (item.current_period_end as number) + MONTH;
  if (sub.cancel_at_period_end) {
    sub.status = 'canceled';
    return sub;
  }
  return invoiceFor(ctx, sub, (item.price as Obj).unit_amount as number, 'subscription_cycle');
}
