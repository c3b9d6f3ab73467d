import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { amountChangedMessage, BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import type { Db } from '../../db/client';
import { localCheckoutSessions, localPayments, localSubscriptions, paymentMethods } from '../../db/schema';
import { AppError, conflict, notFound } from '../../errors';
import type { UserRow } from '../auth/user-view';
import { addMonth } from './billing-period';
import type { Tx } from './ledger-service';
import { createLocalOutbox } from './local-outbox';
import {
  type CrownPayment,
  ENTITLED_STATUSES,
  isEntitled,
  type PaidInvoice,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderRefund,
  type SubscriptionSnapshot,
  type UpgradeQuote,
  upgradeInvoice,
} from './payment-provider';
import { prorateUpgrade } from './proration';
import { type CardDetails, type CardInput, judgeCard } from './test-cards';

const id = (prefix: string) => `${prefix}_local_${randomBytes(16).toString('base64url')}`;
/** The id of a charge retried with the same idempotency key is the same id: it is taken once. */
const keyedId = (prefix: string, key: string) =>
  `${prefix}_local_${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
const ENTITLED_SQL = sql.raw(`status in (${ENTITLED_STATUSES.map((s) => `'${s}'`).join(', ')})`);
/** The kinds of charge a subscription makes (its invoices), as at Stripe. */
const SUBSCRIPTION_CHARGES = ['subscription_create', 'subscription_cycle', 'subscription_update'] as const;
export const localCustomerId = (userId: number) => `cus_local_${userId}`;

/** Where the local provider's hosted checkout lives (served by this app, see local-checkout-routes.ts). */
export const LOCAL_CHECKOUT_PATH = '/billing/checkout';
const SESSION_LIFETIME_MS = 24 * 3600 * 1000;

export type LocalSession = typeof localCheckoutSessions.$inferSelect;

export type SubmitResult =
  | { kind: 'complete' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; message: string; field: 'number' | 'expiry' | 'cvc' | 'form' };

class AlreadySubscribed extends Error {}

/**
 * The local test provider: a payment provider that lives in this app, for development, tests and demos
 * without Stripe keys. Its own tables (local_*, payment_methods) play the provider's side; it tells us what
 * happened the way Stripe does, with events, which go through the same fulfilment as Stripe's webhooks.
 * Every change of its rows writes its events in the same transaction (the outbox, decision 091), so a crash
 * between the provider's step and the app's step cannot leave them apart for good.
 */
export function createLocalProvider(d: {
  db: Db;
  publicOrigin: string;
  /** Delivers an event to our fulfilment (set by the module once both exist). */
  deliver: (event: ProviderEvent) => Promise<unknown>;
  now?: () => Date;
}) {
  const now = d.now ?? (() => new Date());
  const db = d.db;
  const outbox = createLocalOutbox({ db, deliver: d.deliver, now });

  /**
   * Runs a change of the provider's rows and writes the events it announces in one transaction, then
   * delivers them (the outbox's sweep delivers them if this process dies first).
   */
  const commit = async <T>(
    work: (tx: Tx, emit: (event: Omit<ProviderEvent, 'id'>) => void) => Promise<T>,
  ): Promise<T> => {
    let events: ProviderEvent[] = [];
    const result = await db.transaction(async (tx) => {
      events = [];
      const value = await work(tx, (e) => events.push({ id: id('evt'), ...e }));
      await outbox.add(tx, events);
      return value;
    });
    await outbox.flush(events);
    return result;
  };

  const subscriptionRow = async (subId: string, tx: Tx = db) => {
    const [row] = await tx.select().from(localSubscriptions).where(eq(localSubscriptions.id, subId)).limit(1);
    if (!row) throw notFound('Subscription not found');
    return row;
  };

  /** The upgrade's price at `at` from the provider's row (decision 250): one arithmetic, proration.ts. */
  const quoteOf = (row: typeof localSubscriptions.$inferSelect, to: Plan, at: Date): UpgradeQuote => {
    if (row.plan === to.id || !isEntitled(row.status)) {
      throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
    }
    const proration = prorateUpgrade({
      fromPriceCents: PLANS[row.plan as PlanId].priceCents,
      toPriceCents: to.priceCents,
      periodStart: row.currentPeriodStart,
      periodEnd: row.currentPeriodEnd,
      at,
    });
    return { at, ...proration, newPeriodEnd: addMonth(at) };
  };

  const savedCard = async (userId: number, tx: Tx = db) => {
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.provider, 'local')))
      .orderBy(desc(paymentMethods.id))
      .limit(1);
    if (!card) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
    return card;
  };

  const activeSubscriptionOf = async (userId: number) =>
    (
      await db
        .select()
        .from(localSubscriptions)
        .where(
          and(
            eq(localSubscriptions.userId, userId),
            inArray(localSubscriptions.status, [...ENTITLED_STATUSES]),
          ),
        )
        .limit(1)
    )[0];

  /** Takes a subscription's invoice: the charge and its invoice.paid event, in the caller's transaction. */
  const chargeInvoice = async (
    tx: Tx,
    emit: (event: Omit<ProviderEvent, 'id'>) => void,
    invoice: PaidInvoice & { userId: number; subscriptionId: string },
  ) => {
    await tx.insert(localPayments).values({
      id: invoice.id,
      userId: invoice.userId,
      kind: invoice.billingReason,
      amountCents: invoice.amountCents,
      subscriptionId: invoice.subscriptionId,
    });
    emit({ type: 'invoice.paid', subscriptionId: invoice.subscriptionId, paidInvoice: invoice });
  };

  /**
   * The card is good: the provider creates the subscription, saves the card, takes the first invoice and
   * tells us. Claiming the session and creating the subscription happen in one transaction, and the partial
   * unique index on entitled subscriptions lets only one of several sessions paid at once through.
   */
  async function complete(session: LocalSession, card: CardDetails): Promise<SubmitResult> {
    const subId = id('sub');
    const plan = PLANS[session.plan as PlanId];
    const customer = { customerId: localCustomerId(session.userId), userId: session.userId };
    const started = now();
    try {
      await commit(async (tx, emit) => {
        // Only the first submission of a session completes it (a double click, a second tab).
        const [done] = await tx
          .update(localCheckoutSessions)
          .set({ status: 'complete', completedAt: now(), subscriptionId: subId })
          .where(and(eq(localCheckoutSessions.id, session.id), ne(localCheckoutSessions.status, 'complete')))
          .returning();
        if (!done) return;
        const created = await tx
          .insert(localSubscriptions)
          .values({
            id: subId,
            userId: session.userId,
            plan: plan.id,
            status: 'active',
            currentPeriodStart: started,
            currentPeriodEnd: addMonth(started),
          })
          .onConflictDoNothing({ target: localSubscriptions.userId, where: ENTITLED_SQL })
          .returning({ id: localSubscriptions.id });
        // Another session of this user was paid first: roll back this session's claim, charge nothing.
        if (created.length === 0) throw new AlreadySubscribed();
        await tx
          .delete(paymentMethods)
          .where(and(eq(paymentMethods.userId, session.userId), eq(paymentMethods.provider, 'local')));
        await tx.insert(paymentMethods).values({
          userId: session.userId,
          provider: 'local',
          providerMethodId: id('pm'),
          ...card,
        });
        emit({ type: 'checkout.session.completed', customer, subscriptionId: subId });
        await chargeInvoice(tx, emit, {
          id: id('in'),
          userId: session.userId,
          customerId: customer.customerId,
          subscriptionId: subId,
          plan: plan.id,
          amountCents: plan.priceCents,
          billingReason: 'subscription_create',
        });
      });
    } catch (err) {
      if (err instanceof AlreadySubscribed) {
        return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.alreadySubscribed };
      }
      throw err;
    }
    return { kind: 'complete' };
  }

  /** A subscription's row change announced by customer.subscription.{updated,deleted}. */
  const updateSubscription = (
    subId: string,
    set: Partial<typeof localSubscriptions.$inferInsert>,
    type = 'customer.subscription.updated',
  ) =>
    commit(async (tx, emit) => {
      await tx.update(localSubscriptions).set(set).where(eq(localSubscriptions.id, subId));
      emit({ type, subscriptionId: subId });
    });

  const provider: PaymentProvider = {
    name: 'local',

    async createCheckout(user: UserRow, plan: Plan) {
      const sessionId = id('cs');
      await db.insert(localCheckoutSessions).values({ id: sessionId, userId: user.id, plan: plan.id });
      return `${d.publicOrigin}${LOCAL_CHECKOUT_PATH}/${sessionId}`;
    },

    async retrieveSubscription(subId: string, tx?: Tx): Promise<SubscriptionSnapshot> {
      const row = await subscriptionRow(subId, tx);
      return {
        id: row.id,
        userId: row.userId,
        customerId: localCustomerId(row.userId),
        plan: row.plan as PlanId,
        pendingPlan: (row.pendingPlan as PlanId | null) ?? null,
        status: row.status,
        currentPeriodEnd: row.currentPeriodEnd,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      };
    },

    async previewUpgrade(subId: string, to: Plan, at: Date): Promise<UpgradeQuote> {
      return quoteOf(await subscriptionRow(subId), to, at);
    },

    upgrade: (subId: string, to: Plan, idempotencyKey: string, quote: UpgradeQuote): Promise<PaidInvoice> =>
      commit(async (tx, emit) => {
        const invoiceId = keyedId('in', idempotencyKey);
        const [earlier] = await tx.select().from(localPayments).where(eq(localPayments.id, invoiceId));
        // A retry of an upgrade that went through: its invoice again, nothing charged (as at Stripe).
        if (earlier) {
          return upgradeInvoice({
            id: earlier.id,
            userId: earlier.userId,
            customerId: localCustomerId(earlier.userId),
            subscriptionId: subId,
            to,
            amountCents: earlier.amountCents,
          });
        }
        const row = await subscriptionRow(subId, tx);
        await savedCard(row.userId, tx);
        // The amount from the row as this transaction reads it: when the period moved since the quote (a
        // renewal in between), the quote is not what would be charged, and nothing is.
        const due = quoteOf(row, to, quote.at);
        if (due.amountDueCents !== quote.amountDueCents) {
          throw conflict(amountChangedMessage(due.amountDueCents), 'amount_changed');
        }
        // Like Stripe with billing_cycle_anchor=now and always_invoice: a new cycle starts at the quote's
        // moment, charged the new plan's month less the unused part of the old period.
        // Conditional on the plan and the period read above: of two upgrades racing here, the second matches
        // no row.
        const [changed] = await tx
          .update(localSubscriptions)
          .set({
            plan: to.id,
            pendingPlan: null,
            cancelAtPeriodEnd: false,
            currentPeriodStart: quote.at,
            currentPeriodEnd: due.newPeriodEnd,
          })
          .where(
            and(
              eq(localSubscriptions.id, subId),
              ne(localSubscriptions.plan, to.id),
              eq(localSubscriptions.currentPeriodEnd, row.currentPeriodEnd),
              inArray(localSubscriptions.status, [...ENTITLED_STATUSES]),
            ),
          )
          .returning({ id: localSubscriptions.id });
        if (!changed) throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
        const invoice = upgradeInvoice({
          id: invoiceId,
          userId: row.userId,
          customerId: localCustomerId(row.userId),
          subscriptionId: subId,
          to,
          amountCents: due.amountDueCents,
        });
        await chargeInvoice(tx, emit, invoice);
        return invoice;
      }),

    scheduleDowngrade: (subId: string, to: Plan) => updateSubscription(subId, { pendingPlan: to.id }),

    cancelAtPeriodEnd: (subId: string) => updateSubscription(subId, { cancelAtPeriodEnd: true }),

    cancelNow: (subId: string) =>
      updateSubscription(subId, { status: 'canceled' }, 'customer.subscription.deleted'),

    /**
     * Gives back every charge of the subscription, once: a refund's id comes from the charge's, so a repeat
     * (or two at once: the primary key) finds the refund already there.
     */
    refundSubscription: (subId: string): Promise<ProviderRefund[]> =>
      commit(async (tx) => {
        const charges = await tx
          .select()
          .from(localPayments)
          .where(
            and(
              eq(localPayments.subscriptionId, subId),
              inArray(localPayments.kind, [...SUBSCRIPTION_CHARGES]),
            ),
          )
          .orderBy(localPayments.createdAt);
        const refunds: ProviderRefund[] = [];
        for (const charge of charges) {
          const refund = {
            id: keyedId('re', charge.id),
            invoiceId: charge.id,
            amountCents: charge.amountCents,
          };
          await tx
            .insert(localPayments)
            .values({
              id: refund.id,
              userId: charge.userId,
              kind: 'refund',
              amountCents: charge.amountCents,
              subscriptionId: subId,
            })
            .onConflictDoNothing({ target: localPayments.id });
          refunds.push(refund);
        }
        return refunds;
      }),

    chargeCrowns: (
      user: UserRow,
      crowns: number,
      amountCents: number,
      idempotencyKey: string,
    ): Promise<CrownPayment> =>
      commit(async (tx, emit) => {
        await savedCard(user.id, tx);
        const payment: CrownPayment = {
          id: keyedId('pi', idempotencyKey),
          userId: user.id,
          crowns,
          amountCents,
        };
        const inserted = await tx
          .insert(localPayments)
          .values({ id: payment.id, userId: user.id, kind: 'crowns', amountCents, crowns })
          .onConflictDoNothing({ target: localPayments.id })
          .returning({ id: localPayments.id });
        if (inserted.length === 0) {
          // The same key again (a retry, a double click): the first payment, charged once.
          const [earlier] = await tx.select().from(localPayments).where(eq(localPayments.id, payment.id));
          if (
            earlier?.userId !== user.id ||
            earlier.crowns !== crowns ||
            earlier.amountCents !== amountCents
          ) {
            throw new AppError(409, 'idempotency_key_reused', BILLING_MESSAGES.idempotencyKeyReused);
          }
          return payment;
        }
        emit({ type: 'payment_intent.succeeded', crownPayment: payment });
        return payment;
      }),

    // The local provider keeps no address of its own: its customer is the user row.
    updateCustomerEmail: async () => {},

    async listPaymentMethods(user: UserRow) {
      const rows = await db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, user.id), eq(paymentMethods.provider, 'local')))
        .orderBy(desc(paymentMethods.id));
      return rows.map((r) => ({ brand: r.brand, last4: r.last4, expMonth: r.expMonth, expYear: r.expYear }));
    },
  };

  return {
    ...provider,
    name: 'local' as const,
    outbox,

    /** An open or paid session; like a provider's, an unpaid one expires after a day. */
    async session(sessionId: string): Promise<LocalSession | undefined> {
      if (!/^cs_local_[\w-]{10,40}$/.test(sessionId)) return undefined;
      const [row] = await db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId))
        .limit(1);
      if (
        row &&
        row.status !== 'complete' &&
        now().getTime() - row.createdAt.getTime() > SESSION_LIFETIME_MS
      ) {
        return undefined;
      }
      return row;
    },

    /** The hosted page's form post: judge the card like the provider would. */
    async submitCard(session: LocalSession, input: CardInput): Promise<SubmitResult> {
      if (session.status === 'complete') return { kind: 'complete' };
      const outcome = judgeCard(input, now());
      if (outcome.kind === 'declined') return outcome;
      if (outcome.kind === 'requires_action') {
        await db
          .update(localCheckoutSessions)
          .set({
            status: 'requires_action',
            cardBrand: outcome.card.brand,
            cardLast4: outcome.card.last4,
            cardExpMonth: outcome.card.expMonth,
            cardExpYear: outcome.card.expYear,
          })
          .where(eq(localCheckoutSessions.id, session.id));
        return { kind: 'requires_action' };
      }
      return complete(session, outcome.card);
    },

    /** The 3-D Secure step: the cardholder confirms (the payment goes through) or fails it. */
    async authenticate(session: LocalSession, approve: boolean): Promise<SubmitResult> {
      if (session.status === 'complete') return { kind: 'complete' };
      if (session.status !== 'requires_action' || !session.cardLast4) {
        return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
      }
      await db
        .update(localCheckoutSessions)
        .set({ status: 'open', cardBrand: null, cardLast4: null, cardExpMonth: null, cardExpYear: null })
        .where(eq(localCheckoutSessions.id, session.id));
      if (!approve)
        return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
      return complete(session, {
        brand: session.cardBrand ?? 'visa',
        last4: session.cardLast4,
        expMonth: session.cardExpMonth ?? 12,
        expYear: session.cardExpYear ?? now().getUTCFullYear(),
      });
    },

    /**
     * Starts the user's next billing cycle now (for trying and testing renewals): a cancellation ends the
     * subscription, a scheduled downgrade takes effect, and the cycle's invoice is paid with the saved card.
     */
    async advanceCycle(userId: number): Promise<{ ended: boolean; plan: PlanId | null }> {
      const sub = await activeSubscriptionOf(userId);
      if (!sub) throw conflict(BILLING_MESSAGES.noSubscription);
      if (sub.cancelAtPeriodEnd) {
        await provider.cancelNow(sub.id);
        return { ended: true, plan: null };
      }
      const plan = PLANS[(sub.pendingPlan ?? sub.plan) as PlanId];
      const periodStart = new Date(Math.max(sub.currentPeriodEnd.getTime(), now().getTime()));
      const periodEnd = addMonth(periodStart);
      await commit(async (tx, emit) => {
        // Conditional on the period read above: of two advances racing (admin API, CLI), one charges.
        const [advanced] = await tx
          .update(localSubscriptions)
          .set({
            plan: plan.id,
            pendingPlan: null,
            currentPeriodStart: periodStart,
            currentPeriodEnd: periodEnd,
            status: 'active',
          })
          .where(
            and(
              eq(localSubscriptions.id, sub.id),
              eq(localSubscriptions.currentPeriodEnd, sub.currentPeriodEnd),
              eq(localSubscriptions.status, sub.status),
            ),
          )
          .returning({ id: localSubscriptions.id });
        if (!advanced) throw conflict(BILLING_MESSAGES.changeInProgress);
        await chargeInvoice(tx, emit, {
          id: id('in'),
          userId,
          customerId: localCustomerId(userId),
          subscriptionId: sub.id,
          plan: plan.id,
          amountCents: plan.priceCents,
          billingReason: 'subscription_cycle',
        });
      });
      return { ended: false, plan: plan.id };
    },
  };
}
export type LocalProvider = ReturnType<typeof createLocalProvider>;
