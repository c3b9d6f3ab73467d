import type { PaymentMethodView } from '../../../shared/api/billing';
import type { Plan, PlanId } from '../../../shared/plans';
import type { UserRow } from '../auth/user-view';
import type { Tx } from './ledger-service';

export type ProviderName = 'stripe' | 'local';

/** A provider's subscription as re-read from the provider: the state we mirror, whatever the event order. */
export interface SubscriptionSnapshot {
  id: string;
  /** From the subscription's own metadata (Stripe) or row (local); else found through the customer. */
  userId: number | null;
  customerId: string | null;
  /** The plan the user is entitled to now. */
  plan: PlanId;
  /** A downgrade that starts with the next cycle. */
  pendingPlan: PlanId | null;
  status: string;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

/** A paid invoice of a subscription: money taken, and the plan's allowance to grant once (reference = id). */
export interface PaidInvoice {
  id: string;
  userId: number | null;
  customerId: string | null;
  subscriptionId: string | null;
  plan: PlanId;
  amountCents: number;
  /** subscription_create | subscription_cycle | subscription_update (Stripe's billing_reason). */
  billingReason: string;
}

/**
 * What an upgrade charges if it happens at `at` (decision 250): the new plan's month from `at`, less the
 * unused part of the current period. The upgrade is charged from a quote taken at the moment of the change.
 */
export interface UpgradeQuote {
  at: Date;
  amountDueCents: number;
  creditCents: number;
  unusedSeconds: number;
  /** The new plan's first period: from `at` to this. */
  newPeriodEnd: Date;
}

/** A one-off payment for crowns (reference = the payment's id). */
export interface CrownPayment {
  id: string;
  userId: number;
  crowns: number;
  amountCents: number;
}

/** Money given back for one paid invoice (reference = the refund's id at the provider). */
export interface ProviderRefund {
  id: string;
  invoiceId: string;
  amountCents: number;
}

/**
 * What a verified provider event asks us to do. Both providers turn their events into this shape, and one
 * fulfilment routine applies it (fulfilment.ts): the local provider is never a second code path.
 */
export interface ProviderEvent {
  id: string;
  type: string;
  /** A checkout completed: this customer is this user. */
  customer?: { customerId: string; userId: number };
  /** Re-read this subscription from the provider and mirror it. */
  subscriptionId?: string;
  paidInvoice?: PaidInvoice;
  crownPayment?: CrownPayment;
}

/** What the billing service asks of a payment provider (Stripe, or the local test provider). */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** Starts a hosted checkout for a subscription to `plan`; returns the page the browser goes to. */
  createCheckout(user: UserRow, plan: Plan): Promise<string>;
  /**
   * The subscription as the provider holds it now. `tx` is the caller's transaction: the local provider
   * reads its own tables through it (PGlite has one connection); Stripe ignores it.
   */
  retrieveSubscription(id: string, tx?: Tx): Promise<SubscriptionSnapshot>;
  /** What an upgrade to `to` would charge at `at`, from the provider's subscription as it is now. */
  previewUpgrade(subscriptionId: string, to: Plan, at: Date): Promise<UpgradeQuote>;
  /**
   * Immediate plan change, a new period starting at `quote.at`, charged the quote's prorated amount; the
   * paid invoice comes back. The local provider recomputes the amount in its transaction and refuses (409
   * amount_changed, nothing charged) when it differs from the quote; Stripe prorates at `quote.at`
   * (proration_date). A retry with the same idempotency key returns the first invoice and charges nothing more.
   */
  upgrade(
    subscriptionId: string,
    to: Plan,
    idempotencyKey: string,
    quote: UpgradeQuote,
  ): Promise<PaidInvoice>;
  /** Plan change that starts with the next cycle; nothing is charged now. */
  scheduleDowngrade(subscriptionId: string, to: Plan): Promise<void>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /**
   * Ends the subscription now (account deletion, a duplicate subscription). Safe to repeat: a subscription
   * that has already ended stays ended and nothing fails.
   */
  cancelNow(subscriptionId: string): Promise<void>;
  /**
   * Refunds in full every paid invoice of the subscription (a duplicate subscription, decision 157). Safe
   * to repeat and to run twice at once: each invoice is refunded once (the provider is asked which refunds
   * exist, and each refund carries an idempotency key named after its invoice); every refund comes back.
   */
  refundSubscription(subscriptionId: string): Promise<ProviderRefund[]>;
  /**
   * Charges the saved card for crowns; resolves only once the money is taken. The same idempotency key
   * again returns the first payment without charging; with other details it is a 409.
   */
  chargeCrowns(
    user: UserRow,
    crowns: number,
    amountCents: number,
    idempotencyKey: string,
  ): Promise<CrownPayment>;
  listPaymentMethods(user: UserRow): Promise<PaymentMethodView[]>;
  /** The user's address changed: the provider's customer (receipts, invoices) gets it too. */
  updateCustomerEmail(userId: number, email: string): Promise<void>;
}

/** Provider statuses that keep the plan's access (Stripe keeps retrying a past_due invoice). */
export const ENTITLED_STATUSES = ['active', 'trialing', 'past_due'] as const;

export const isEntitled = (status: string): boolean =>
  (ENTITLED_STATUSES as readonly string[]).includes(status);

/**
 * The paid invoice of an upgrade to `to`, one shape from both providers (a new upgrade's and the one a
 * retry finds already made). Generic so the local provider keeps knowing its user and subscription.
 */
export const upgradeInvoice = <U extends number | null, S extends string | null>(p: {
  id: string;
  userId: U;
  customerId: string | null;
  subscriptionId: S;
  to: Plan;
  amountCents: number;
}) => ({
  id: p.id,
  userId: p.userId,
  customerId: p.customerId,
  subscriptionId: p.subscriptionId,
  plan: p.to.id,
  amountCents: p.amountCents,
  billingReason: 'subscription_update',
});
