import { and, eq, inArray, isNull, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { duplicateSubscriptions, payments, subscriptions } from '../../db/schema';
import type { Tx } from './ledger-service';
import {
  ENTITLED_STATUSES,
  isEntitled,
  type PaymentProvider,
  type ProviderRefund,
  type SubscriptionSnapshot,
} from './payment-provider';

/**
 * One paid subscription per user and provider (decision 157). Two checkouts paid in the same instant make
 * two subscriptions at the provider; the first one our mirror records as entitled is the one the user
 * keeps, every later one is a duplicate: recorded under the user's lock, never granted, not counted for the
 * plan, then ended and refunded at the provider after the commit (`settle`). Each step is stamped when done
 * and each provider call is safe to repeat, so any later delivery of an event about either subscription
 * finishes what a crash or an outage left undone.
 */

/** Warnings go to the server log (the app's pino logger); tests may collect them. */
export interface BillingLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** A condition for `subscriptions` rows: not a recorded duplicate (those never give the plan). */
export const notDuplicate = () =>
  notExists(
    sql`(select 1 from ${duplicateSubscriptions} where ${duplicateSubscriptions.provider} = ${subscriptions.provider} and ${duplicateSubscriptions.subscriptionId} = ${subscriptions.providerSubscriptionId})`,
  );

export async function isRecordedDuplicate(tx: Tx, provider: string, subscriptionId: string) {
  const [row] = await tx
    .select({ id: duplicateSubscriptions.subscriptionId })
    .from(duplicateSubscriptions)
    .where(
      and(
        eq(duplicateSubscriptions.provider, provider),
        eq(duplicateSubscriptions.subscriptionId, subscriptionId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Called under the user's lock, right after `snap` was mirrored: is it a second entitled subscription?
 * The other candidates are re-read from the provider first (`remirror`), so a subscription that ended
 * there but whose deletion event is still on its way is no reason to refund a new, legitimate one.
 */
export async function detectDuplicate(
  tx: Tx,
  provider: PaymentProvider,
  userId: number,
  snap: SubscriptionSnapshot,
  remirror: (other: SubscriptionSnapshot) => Promise<void>,
): Promise<boolean> {
  if (await isRecordedDuplicate(tx, provider.name, snap.id)) return true;
  if (!isEntitled(snap.status)) return false;
  const others = await tx
    .select({ id: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, provider.name),
        ne(subscriptions.providerSubscriptionId, snap.id),
        inArray(subscriptions.status, [...ENTITLED_STATUSES]),
        notDuplicate(),
      ),
    )
    .orderBy(subscriptions.id);
  for (const other of others) {
    const fresh = await provider.retrieveSubscription(other.id, tx);
    await remirror(fresh);
    if (!isEntitled(fresh.status)) continue;
    await tx
      .insert(duplicateSubscriptions)
      .values({ provider: provider.name, subscriptionId: snap.id, userId, keptSubscriptionId: other.id })
      .onConflictDoNothing();
    return true;
  }
  return false;
}

/**
 * A charge of a duplicate was recorded for the first time (say its invoice.paid came after the refund
 * step ran): the refund step is opened again, so the next settle gives that money back too.
 */
export async function reopenRefund(tx: Tx, provider: string, subscriptionId: string) {
  await tx
    .update(duplicateSubscriptions)
    .set({ refundedAt: null })
    .where(
      and(
        eq(duplicateSubscriptions.provider, provider),
        eq(duplicateSubscriptions.subscriptionId, subscriptionId),
      ),
    );
}

/**
 * Ends and refunds, at the provider, the duplicates named by (or kept over) these subscriptions that are
 * not finished. Runs after the fulfilment's commit, outside any transaction (no transaction stays open
 * across a provider call). Cancel comes first, so the duplicate stops billing before anything else; a
 * failure throws, the webhook answers 5xx, and the provider's redelivery runs this again.
 */
export async function settleDuplicates(d: {
  db: Db;
  provider: PaymentProvider;
  log: BillingLog;
  subscriptionIds: Array<string | null | undefined>;
  /** Mirrors the subscription's state after it ended (the deletion event would do it later anyway). */
  remirror: (subscriptionId: string) => Promise<unknown>;
}): Promise<void> {
  const { db, provider, log } = d;
  const ids = [...new Set(d.subscriptionIds.filter((s): s is string => Boolean(s)))];
  if (ids.length === 0) return;
  const dup = duplicateSubscriptions;
  const pending = await db
    .select()
    .from(dup)
    .where(
      and(
        eq(dup.provider, provider.name),
        or(inArray(dup.subscriptionId, ids), inArray(dup.keptSubscriptionId, ids)),
        or(isNull(dup.canceledAt), isNull(dup.refundedAt)),
      ),
    );
  for (const row of pending) {
    const which = and(eq(dup.provider, provider.name), eq(dup.subscriptionId, row.subscriptionId));
    const about = {
      userId: row.userId,
      provider: provider.name,
      subscriptionId: row.subscriptionId,
      keptSubscriptionId: row.keptSubscriptionId,
    };
    if (!row.canceledAt) {
      await provider.cancelNow(row.subscriptionId);
      const stamped = await db
        .update(dup)
        .set({ canceledAt: sql`now()` })
        .where(and(which, isNull(dup.canceledAt)))
        .returning({ id: dup.subscriptionId });
      if (stamped.length > 0) log.warn(about, 'billing: duplicate subscription canceled at the provider');
      await d.remirror(row.subscriptionId);
    }
    if (!row.refundedAt) {
      const refunds = await provider.refundSubscription(row.subscriptionId);
      const cents = refunds.reduce((sum, r) => sum + r.amountCents, 0);
      const recorded = await db.transaction(async (tx) => {
        // The money that went back, beside the money taken: a refund is a negative payment (reference =
        // the refund's id), so the payments of a user sum to what they really paid.
        const fresh: ProviderRefund[] = [];
        for (const r of refunds) {
          const inserted = await tx
            .insert(payments)
            .values({
              userId: row.userId,
              provider: provider.name,
              reference: r.id,
              kind: 'refund',
              amountCents: -r.amountCents,
            })
            .onConflictDoNothing()
            .returning({ id: payments.id });
          if (inserted.length > 0) fresh.push(r);
        }
        await tx
          .update(dup)
          .set({ refundedAt: sql`now()`, refundedCents: cents })
          .where(and(which, isNull(dup.refundedAt)));
        return fresh;
      });
      // Logged by whoever recorded the refund first: a refund step reopened by a late invoice.paid, or run
      // by two servers at once, finds the same refunds at the provider and must not report them again.
      if (recorded.length > 0) {
        log.warn(
          {
            ...about,
            refundedCents: recorded.reduce((sum, r) => sum + r.amountCents, 0),
            refunds: recorded.map((r) => r.id),
          },
          'billing: duplicate subscription refunded',
        );
      }
    }
  }
}
