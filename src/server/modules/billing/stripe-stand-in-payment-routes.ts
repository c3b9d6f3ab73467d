import {
  type Answer,
  cardError,
  newId,
  notFound,
  outage,
  type StandInContext,
  type StandInRequest,
  values,
} from './stripe-stand-in-store';

/** The stand-in's paid invoices, refunds and one-off PaymentIntents (crowns). */
export function paymentRoutes(ctx: StandInContext, r: StandInRequest): Answer | undefined {
  const { method, path, p } = r;
  const { state } = ctx;
  const { invoices, refunds, paymentIntents } = state;
  if (method === 'GET' && path === '/v1/invoices') {
    const expanded = (values(p.expand) as unknown as string[]).includes('data.payments');
    const data = [...invoices.values()]
      .filter(
        (i) =>
          (!p.subscription || i.subscription_id === p.subscription) && (!p.status || i.status === p.status),
      )
      .map((i) => (expanded ? i : { ...i, payments: undefined }));
    return { status: 200, body: { object: 'list', has_more: false, data } };
  }
  if (method === 'GET' && path === '/v1/refunds') {
    const data = [...refunds.values()].filter(
      (x) => !p.payment_intent || x.payment_intent === p.payment_intent,
    );
    return { status: 200, body: { object: 'list', has_more: false, data } };
  }
  if (method === 'POST' && path === '/v1/refunds') {
    if (state.failNext.refund > 0) {
      state.failNext.refund--;
      return outage();
    }
    const pi = paymentIntents.get(p.payment_intent as string);
    if (!pi) return notFound(path);
    const left = (pi.amount_received as number) - (pi.amount_refunded as number);
    const amount = p.amount ? Number(p.amount) : left;
    if (left <= 0 || amount > left) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Charge for ${pi.id} has already been refunded.`,
          },
        },
      };
    }
    pi.amount_refunded = (pi.amount_refunded as number) + amount;
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: 'usd',
      payment_intent: pi.id,
      reason: p.reason ?? null,
      metadata: p.metadata ?? {},
      status: 'succeeded',
    };
    refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  }
  if (method === 'POST' && path === '/v1/payment_intents') {
    if (state.declineNextCharge) {
      state.declineNextCharge = false;
      return cardError();
    }
    const amount = Number(p.amount);
    const pi = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: amount,
      status: 'succeeded',
      customer: p.customer,
      payment_method: p.payment_method,
      metadata: p.metadata ?? {},
    };
    paymentIntents.set(pi.id, pi);
    return { status: 200, body: pi };
  }
  return undefined;
}
