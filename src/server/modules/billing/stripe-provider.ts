import type Stripe from 'stripe';
import type { Plan } from '../../../shared/plans';
import type { Db } from '../../db/client';
import type { UserRow } from '../auth/user-view';
import type { PaymentProvider, UpgradeQuote } from './payment-provider';
import { type StripeContext, type StripeSettings, stripeClient } from './stripe-context';
import { updateCustomerEmail } from './stripe-customers';
import { toProviderEvent, verifyWebhook } from './stripe-events';
import { chargeCrowns, listPaymentMethods } from './stripe-payments';
import { cancelSubscriptionNow, refundSubscriptionInvoices } from './stripe-refunds';
import {
  cancelAtPeriodEnd,
  createCheckout,
  retrieveSubscription,
  scheduleDowngrade,
} from './stripe-subscriptions';
import { previewUpgrade, upgrade } from './stripe-upgrade';

/**
 * The Stripe adapter: Checkout Sessions in subscription mode from the lookup keys `pro_plan` and
 * `unlimited_plan`; upgrades (prorated, decision 250) and crown purchases charge the saved card; a downgrade
 * swaps the price with no proration and remembers in the subscription's metadata which plan runs until the
 * period ends.
 *
 * This file only assembles it: each part takes the shared context (stripe-context.ts).
 */
export function createStripeProvider(d: { db: Db; settings: StripeSettings; publicOrigin: string }) {
  const stripe = stripeClient(d.settings);
  const ctx: StripeContext = {
    db: d.db,
    settings: d.settings,
    publicOrigin: d.publicOrigin,
    stripe,
    prices: {},
  };

  const provider: PaymentProvider = {
    name: 'stripe',
    createCheckout: (user: UserRow, plan: Plan) => createCheckout(ctx, user, plan),
    retrieveSubscription: (id: string) => retrieveSubscription(ctx, id),
    previewUpgrade: (subscriptionId: string, to: Plan, at: Date) =>
      previewUpgrade(ctx, subscriptionId, to, at),
    upgrade: (subscriptionId: string, to: Plan, idempotencyKey: string, quote: UpgradeQuote) =>
      upgrade(ctx, subscriptionId, to, idempotencyKey, quote),
    scheduleDowngrade: (subscriptionId: string, to: Plan) => scheduleDowngrade(ctx, subscriptionId, to),
    cancelAtPeriodEnd: (subscriptionId: string) => cancelAtPeriodEnd(ctx, subscriptionId),
    cancelNow: (subscriptionId: string) => cancelSubscriptionNow(stripe, subscriptionId),
    refundSubscription: (subscriptionId: string) => refundSubscriptionInvoices(stripe, subscriptionId),
    chargeCrowns: (user: UserRow, crowns: number, amountCents: number, idempotencyKey: string) =>
      chargeCrowns(ctx, user, crowns, amountCents, idempotencyKey),
    updateCustomerEmail: (userId: number, email: string) => updateCustomerEmail(ctx, userId, email),
    listPaymentMethods: (user: UserRow) => listPaymentMethods(ctx, user),
  };

  return {
    ...provider,
    name: 'stripe' as const,
    stripe,
    verify: (rawBody: Buffer, signature: string): Stripe.Event => verifyWebhook(ctx, rawBody, signature),
    toProviderEvent: (event: Stripe.Event) => toProviderEvent(ctx, event),
  };
}
export type StripeProvider = ReturnType<typeof createStripeProvider>;
