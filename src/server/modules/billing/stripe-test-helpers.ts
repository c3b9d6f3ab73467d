import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { StandIn } from './stripe-stand-in';

/** Helpers for suites that drive the Stripe adapter against the stand-in (not a test file itself). */

/** The SDK's own test-header helper signs exactly the bytes we post. */
export const stripeSigner = new Stripe('sk_test_signer').webhooks;

let seq = 0;
export type StripeTestEvent = ReturnType<typeof stripeEvent>;

export const stripeEvent = (type: string, object: unknown, id = `evt_dup_${++seq}_${Date.now()}`) => ({
  id,
  object: 'event',
  type,
  api_version: '2026-10-28.endive',
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  data: { object: structuredClone(object) },
});

/** Posts a signed event to the webhook route, as Stripe does. */
export const deliverTo = (app: FastifyInstance, secret: string) => async (evt: StripeTestEvent) => {
  const payload = JSON.stringify(evt);
  const header = stripeSigner.generateTestHeaderString({ payload, secret });
  const res = await app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
};

/**
 * A second open subscription Checkout Session for the same customer and user, made straight at the
 * stand-in with the parameters our adapter uses: what a race at the provider lets through (decision 157).
 */
export async function extraSession(standIn: StandIn, customer: string, userId: number, price: string) {
  const stripe = new Stripe('sk_test_standin', {
    host: new URL(standIn.url).hostname,
    port: new URL(standIn.url).port,
    protocol: 'http',
  });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: String(userId),
    line_items: [{ price, quantity: 1 }],
    subscription_data: { metadata: { userId: String(userId) } },
    metadata: { userId: String(userId) },
    success_url: 'http://app.test/settings?checkout=success',
  });
  return session.id;
}

/** The events Stripe sends when a checkout is paid. */
export function paidCheckoutEvents(standIn: StandIn, sessionId: string) {
  const paid = standIn.payCheckout(sessionId);
  return {
    ...paid,
    completed: stripeEvent('checkout.session.completed', paid.session),
    invoicePaid: stripeEvent('invoice.paid', paid.invoice),
  };
}
