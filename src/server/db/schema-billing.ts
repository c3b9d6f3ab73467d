import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * Tables of the billing module (see migrations/0002_billing.sql, written by hand to match).
 *
 * The balance columns live on `users` (mix_credits, mastering_credits, crowns with CHECK >= 0); every change
 * of one of them writes a row here in the same transaction, so the ledger of a user sums to their balance.
 */
/** An album download as the server records it (issue 31): tracks in the record's order. */
export interface AlbumDelivery {
  name: string;
  /** `versions`: a mix's versions delivered besides its Main (absent: the track alone). */
  tracks: { trackId: number | null; title: string; versions?: string[] }[];
  formats: string[];
  continuous: boolean;
}

export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** mix | mastering | crown */
    currency: text('currency').notNull(),
    delta: integer('delta').notNull(),
    /** Why: allowance, upgrade, crown_purchase, spend_mix, spend_mastering, adjustment. */
    reason: text('reason').notNull(),
    /**
     * Grants carry the provider's invoice or payment id (plus the currency), spends `spend:{user}:{key}`:
     * unique, so a repeated event or a retried request changes nothing the second time.
     */
    reference: text('reference'),
    /** Issue 18 (migration 0008): a mastering download's delivered versions and formats. */
    delivered: jsonb('delivered').$type<{ versions: string[]; formats: string[] }>(),
    /**
     * Issue 29 (migration 0010): what a spend was for (type, track, versions, formats); its key answers
     * only the same request again. Null on grants.
     */
    request: jsonb('request').$type<
      | {
          type: 'mix' | 'mastering';
          trackId: number | null;
          versions: string[] | null;
          formats: string[] | null;
        }
      | { type: 'album'; album: AlbumDelivery }
    >(),
    /**
     * Issue 31 (migration 0018): what an album download delivered, on its first ledger row (an album paid
     * partly in credits and partly in crowns writes two rows, the second under `spend-album-crowns:{user}:{key}`)
     * and how it was paid.
     */
    album: jsonb('album').$type<
      AlbumDelivery & { charged: number; masteringCredits: number; crowns: number }
    >(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_reference_idx').on(t.reference),
    index('credit_ledger_user_idx').on(t.userId),
    check('credit_ledger_currency_valid', sql`${t.currency} in ('mix', 'mastering', 'crown')`),
    check('credit_ledger_delta_nonzero', sql`${t.delta} <> 0`),
  ],
);

/** Which customer of which provider a user is (created before the first checkout). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    uniqueIndex('billing_customers_customer_idx').on(t.provider, t.customerId),
  ],
);

/**
 * Our mirror of the provider's subscriptions, rewritten from a fresh read of the provider each time an
 * event arrives (never from the event's own copy), so events may arrive in any order.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    /** The plan the user is entitled to now. */
    plan: text('plan').notNull(),
    /** The provider's status: active, trialing, past_due, canceled, incomplete, unpaid... */
    status: text('status').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade waiting for the next cycle. */
    pendingPlan: text('pending_plan'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_id_idx').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

/** Every provider event we accepted, stored by its id: a redelivery finds its row and changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** Money actually taken, one row per provider invoice or payment (reference unique); a refund is a negative row. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    /** subscription_create | subscription_cycle | subscription_update | crowns | refund (decision 157) */
    kind: text('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_reference_idx').on(t.provider, t.reference),
    index('payments_user_idx').on(t.userId),
  ],
);

/** Cards the local test provider holds (Stripe's are read from Stripe). Never a full number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerMethodId: text('provider_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_methods_provider_idx').on(t.provider, t.providerMethodId),
    index('payment_methods_user_idx').on(t.userId),
  ],
);

/** The local test provider's hosted checkout sessions (its side of the world, like Stripe's). */
export const localCheckoutSessions = pgTable(
  'local_checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    /** open | requires_action (3-D Secure) | complete */
    status: text('status').notNull().default('open'),
    /** The card waiting for its 3-D Secure confirmation (brand and last four only). */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: integer('card_exp_month'),
    cardExpYear: integer('card_exp_year'),
    subscriptionId: text('subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('local_checkout_sessions_user_idx').on(t.userId)],
);

/** The local test provider's subscriptions: the source of truth it is re-read from, as Stripe is. */
export const localSubscriptions = pgTable(
  'local_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    status: text('status').notNull(),
    /** When the current period began: an upgrade credits the unused part of it (decision 250). */
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    pendingPlan: text('pending_plan'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('local_subscriptions_user_idx').on(t.userId),
    // One entitled subscription per user, whatever number of checkouts are paid at the same moment.
    uniqueIndex('local_subscriptions_one_entitled_idx')
      .on(t.userId)
      .where(sql`${t.status} in ('active', 'trialing', 'past_due')`),
  ],
);

/**
 * Money the local test provider took (its side, like Stripe's invoices and payment intents): a charge and
 * the event that announces it are written in one transaction (see localOutbox). The id of a retried charge
 * comes from its idempotency key, so it is taken once.
 */
export const localPayments = pgTable(
  'local_payments',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** subscription_create | subscription_cycle | subscription_update | crowns | refund (decision 157) */
    kind: text('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    crowns: integer('crowns'),
    subscriptionId: text('subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('local_payments_user_idx').on(t.userId)],
);

/**
 * The local test provider's transactional outbox: each event is written in the transaction that changes the
 * provider's rows, delivered right after the commit, and again by the sweep (start-up and periodic) until
 * it is marked delivered. Delivery is idempotent by event id (payment_events), so at-least-once is safe.
 */
export const localOutbox = pgTable(
  'local_outbox',
  {
    id: text('id').primaryKey(),
    event: jsonb('event').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('local_outbox_pending_idx').on(t.createdAt).where(sql`${t.deliveredAt} is null`)],
);

/**
 * One subscription change at a time per user: a row is the claim, taken with one conditional statement
 * before the provider is called and removed after; a claim left by a crash lapses (billing-claims.ts).
 */
export const billingClaims = pgTable('billing_claims', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A second entitled subscription of one user at one provider (two checkouts paid in the same instant,
 * decision 157): it is never granted, and the provider is asked to end it now and refund what it took.
 * The row is written under the user's lock in the fulfilment transaction that first sees the duplicate;
 * the provider calls come after the commit, each step stamped when done, so any later delivery of an event
 * about either subscription finishes what a crash or an outage left undone.
 */
export const duplicateSubscriptions = pgTable(
  'duplicate_subscriptions',
  {
    provider: text('provider').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The subscription the user keeps (the one mirrored as entitled first). */
    keptSubscriptionId: text('kept_subscription_id').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the provider confirmed the subscription ended. */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** When every paid invoice of it was refunded (the refunds are rows of `payments`, kind 'refund'). */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundedCents: integer('refunded_cents').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.subscriptionId] }),
    index('duplicate_subscriptions_user_idx').on(t.userId),
    index('duplicate_subscriptions_kept_idx').on(t.provider, t.keptSubscriptionId),
  ],
);
