import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app';
import { billingRoutes } from './billing-routes';
import { createBillingService } from './billing-service';
import { createFulfilment } from './fulfilment';
import { createLedgerService } from './ledger-service';
import { localCheckoutRoutes } from './local-checkout-routes';
import { createLocalProvider, type LocalProvider } from './local-provider';
import type { PaymentProvider, ProviderEvent } from './payment-provider';
import { createStripeProvider } from './stripe-provider';
import { stripeWebhookRoutes } from './stripe-webhook-routes';

/**
 * Billing: Stripe when STRIPE_SECRET_KEY is set, else the local test provider with its hosted checkout
 * served by this app. Both feed the same fulfilment.
 */
export async function registerBillingModule(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;
  const ledger = createLedgerService(db);
  // Duplicate subscriptions cancelled and refunded (decision 157) are logged at warn level.
  const fulfilment = createFulfilment(db, app.log);

  let provider: PaymentProvider;
  let local: LocalProvider | undefined;
  if (config.stripe) {
    const stripe = createStripeProvider({ db, settings: config.stripe, publicOrigin: config.publicOrigin });
    provider = stripe;
    if (!config.stripe.webhookSecret) {
      app.log.error(
        'STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: every Stripe webhook will be refused',
      );
    }
    await stripeWebhookRoutes(app, { stripe, fulfilment });
  } else {
    const deliver = (event: ProviderEvent) => fulfilment.applyEvent(provider, event);
    local = createLocalProvider({ db, publicOrigin: config.publicOrigin, deliver });
    provider = local;
    await localCheckoutRoutes(app, { local });
    // Events a crash kept from being delivered go out at start-up, and a failed delivery is retried.
    const outbox = local.outbox;
    let stopSweeping: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopSweeping = outbox.start(
        (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
        config.localOutboxSweepSeconds * 1000,
      );
    });
    app.addHook('onClose', async () => {
      await stopSweeping?.();
    });
  }

  const billing = createBillingService({ db, provider, fulfilment, local });
  ctx.accountCleanups.push((user) => billing.cancelForDeletion(user));
  ctx.emailChanged.push((userId, email) => provider.updateCustomerEmail(userId, email));
  await billingRoutes(app, { billing, ledger });
  return { billing, ledger, fulfilment, provider };
}
