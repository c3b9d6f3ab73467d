import type Stripe from 'stripe';
import type { PlanId } from '../../../shared/plans';
import type { ProviderEvent } from './payment-provider';
import { idOf, type StripeContext } from './stripe-context';
import { planOfPrice } from './stripe-prices';

/** Stripe's webhooks: the signature checked, the event read as what it asks of our fulfilment. */

/** Signatures older than this are replays (Stripe's own default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Verifies the signature on the raw body (missing, wrong or stale ones throw) and parses the event. */
export function verifyWebhook(ctx: StripeContext, rawBody: Buffer, signature: string): Stripe.Event {
  if (!ctx.settings.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
  return ctx.stripe.webhooks.constructEvent(
    rawBody,
    signature,
    ctx.settings.webhookSecret,
    WEBHOOK_TOLERANCE_SECONDS,
  );
}

/** What a verified Stripe event asks of our fulfilment; null for events we do not act on. */
export async function toProviderEvent(
  ctx: StripeContext,
  event: Stripe.Event,
): Promise<ProviderEvent | null> {
  const base = { id: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      if (s.mode !== 'subscription') return null;
      const userId = Number(s.client_reference_id ?? s.metadata?.userId);
      const customerId = idOf(s.customer);
      return {
        ...base,
        customer: customerId && userId > 0 ? { customerId, userId } : undefined,
        subscriptionId: idOf(s.subscription) ?? undefined,
      };
    }
    case 'invoice.paid': {
      const inv = event.data.object;
      const subscriptionId = idOf(inv.parent?.subscription_details?.subscription) ?? undefined;
      let plan: PlanId | null = null;
      // The plan is the one the invoice starts; a proration line is the credit for the old one.
      for (const line of inv.lines.data) {
        if (line.parent?.subscription_item_details?.proration) continue;
        plan ??= await planOfPrice(ctx, line.pricing?.price_details?.price);
      }
      if (!plan || !inv.id) return { ...base, subscriptionId };
      return {
        ...base,
        subscriptionId,
        paidInvoice: {
          id: inv.id,
          userId: Number(inv.parent?.subscription_details?.metadata?.userId) || null,
          customerId: idOf(inv.customer),
          subscriptionId: subscriptionId ?? null,
          plan,
          amountCents: inv.amount_paid,
          billingReason: inv.billing_reason ?? 'subscription_cycle',
        },
      };
    }
    case 'invoice.payment_failed': {
      const subscriptionId = idOf(event.data.object.parent?.subscription_details?.subscription);
      return subscriptionId ? { ...base, subscriptionId } : null;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { ...base, subscriptionId: event.data.object.id };
    case 'payment_intent.succeeded': {
      const pi = event.data.object;
      if (pi.metadata?.kind !== 'crowns') return null;
      const userId = Number(pi.metadata.userId);
      const crowns = Number(pi.metadata.crowns);
      if (!(userId > 0) || !(crowns > 0)) return null;
      return {
        ...base,
        crownPayment: { id: pi.id, userId, crowns, amountCents: pi.amount_received || pi.amount },
      };
    }
    default:
      return null;
  }
}
