import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { AppError } from '../../errors';
import type { UserRow } from '../auth/user-view';
import type { CrownPayment } from './payment-provider';
import { idOf, type StripeContext } from './stripe-context';
import { customerOf } from './stripe-customers';
import { call } from './stripe-errors';

/** Charges of the saved card outside a subscription (crowns), and the cards Stripe keeps for the customer. */

/** The card Stripe charges off-session: the subscription's, else the customer's first card. */
async function chargeableCard(ctx: StripeContext, customerId: string): Promise<string> {
  const customer = await call(() => ctx.stripe.customers.retrieve(customerId));
  const preferred =
    'deleted' in customer && customer.deleted
      ? null
      : idOf(customer.invoice_settings?.default_payment_method);
  if (preferred) return preferred;
  const cards = await call(() =>
    ctx.stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 }),
  );
  const first = cards.data[0];
  if (!first) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
  return first.id;
}

export async function chargeCrowns(
  ctx: StripeContext,
  user: UserRow,
  crowns: number,
  amountCents: number,
  idempotencyKey: string,
): Promise<CrownPayment> {
  const customer = await customerOf(ctx, user.id);
  if (!customer) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
  const paymentMethod = await chargeableCard(ctx, customer);
  const intent = await call(() =>
    ctx.stripe.paymentIntents.create(
      {
        amount: amountCents,
        currency: 'usd',
        customer,
        payment_method: paymentMethod,
        off_session: true,
        confirm: true,
        description: `${crowns} crowns`,
        metadata: { kind: 'crowns', userId: String(user.id), crowns: String(crowns) },
      },
      { idempotencyKey },
    ),
  );
  if (intent.status !== 'succeeded') throw new AppError(402, 'card_declined', BILLING_MESSAGES.cardDeclined);
  return { id: intent.id, userId: user.id, crowns, amountCents: intent.amount_received || amountCents };
}

export async function listPaymentMethods(ctx: StripeContext, user: UserRow) {
  const customer = await customerOf(ctx, user.id);
  if (!customer) return [];
  const list = await call(() => ctx.stripe.paymentMethods.list({ customer, type: 'card', limit: 10 }));
  return list.data
    .filter((m) => m.card)
    .map((m) => ({
      brand: m.card!.brand,
      last4: m.card!.last4,
      expMonth: m.card!.exp_month,
      expYear: m.card!.exp_year,
    }));
}
