import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { localPayments, localSubscriptions, paymentMethods } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import type { Tx } from './ledger-service';
import type { LocalOutbox } from './local-outbox';
import { ENTITLED_STATUSES, type PaidInvoice, type ProviderEvent } from './payment-provider';

/**
 * What every part of the local test provider shares (checkout, plan changes, payments): its database, clock
 * and outbox, and the few reads and writes they all make. Passed as one object instead of one closure, so
 * each part lives in a file of its own (local-checkout.ts, local-upgrade.ts, local-subscriptions.ts,
 * local-payments.ts; assembled in local-provider.ts).
 */
export interface LocalContext {
  db: Db;
  publicOrigin: string;
  now: () => Date;
  outbox: LocalOutbox;
}

/** Announces an event of the provider inside the change that causes it (the outbox, decision 091). */
export type Emit = (event: Omit<ProviderEvent, 'id'>) => void;

export const localId = (prefix: string) => `${prefix}_local_${randomBytes(16).toString('base64url')}`;
/** The id of a charge retried with the same idempotency key is the same id: it is taken once. */
export const keyedId = (prefix: string, key: string) =>
  `${prefix}_local_${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
export const ENTITLED_SQL = sql.raw(`status in (${ENTITLED_STATUSES.map((s) => `'${s}'`).join(', ')})`);
export const localCustomerId = (userId: number) => `cus_local_${userId}`;

/**
 * Runs a change of the provider's rows and writes the events it announces in one transaction, then
 * delivers them (the outbox's sweep delivers them if this process dies first).
 */
export const commit = async <T>(ctx: LocalContext, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> => {
  let events: ProviderEvent[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    events = [];
    const value = await work(tx, (e) => events.push({ id: localId('evt'), ...e }));
    await ctx.outbox.add(tx, events);
    return value;
  });
  await ctx.outbox.flush(events);
  return result;
};

export const subscriptionRow = async (ctx: LocalContext, subId: string, tx: Tx = ctx.db) => {
  const [row] = await tx.select().from(localSubscriptions).where(eq(localSubscriptions.id, subId)).limit(1);
  if (!row) throw notFound('Subscription not found');
  return row;
};

export const savedCard = async (ctx: LocalContext, userId: number, tx: Tx = ctx.db) => {
  const [card] = await tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.provider, 'local')))
    .orderBy(desc(paymentMethods.id))
    .limit(1);
  if (!card) throw new AppError(402, 'no_payment_method', BILLING_MESSAGES.noPaymentMethod);
  return card;
};

/** Takes a subscription's invoice: the charge and its invoice.paid event, in the caller's transaction. */
export const chargeInvoice = async (
  tx: Tx,
  emit: Emit,
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
