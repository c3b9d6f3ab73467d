import Stripe from 'stripe';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { AppError } from '../../errors';

/** Stripe's errors as the user should read them; card problems keep Stripe's own wording. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) {
      throw new AppError(402, 'card_declined', err.message || BILLING_MESSAGES.cardDeclined);
    }
    // The same idempotency key sent with other parameters: Stripe refuses it and charges nothing.
    if (err instanceof Stripe.errors.StripeIdempotencyError) {
      throw new AppError(409, 'idempotency_key_reused', BILLING_MESSAGES.idempotencyKeyReused);
    }
    if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError) {
      throw new AppError(503, 'provider_unavailable', BILLING_MESSAGES.providerUnavailable);
    }
    throw err;
  }
}
