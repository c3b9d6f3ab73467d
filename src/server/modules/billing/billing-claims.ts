import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { billingClaims } from '../../db/schema';
import { conflict } from '../../errors';

/**
 * A claim left behind by a crashed process lapses after this long. It outlives the longest provider call
 * (Stripe: 15 s timeout, 2 retries), so a live claim is never taken over.
 */
export const CLAIM_LAPSE_SECONDS = 120;

/**
 * Runs `work` while holding the user's billing claim (decision 090): one conditional statement inserts the
 * claim, or takes over one that lapsed; a concurrent second request matches no row and gets a 409. The claim
 * is not a transaction held open across the provider call, so PGlite's one connection and Stripe's latency
 * block nobody else. The claim's key names this attempt (an idempotency key for the provider's call).
 */
export async function withBillingClaim<T>(
  db: Db,
  userId: number,
  work: (claimKey: string) => Promise<T>,
): Promise<T> {
  const key = randomUUID();
  const claimed = await db
    .insert(billingClaims)
    .values({ userId, key })
    .onConflictDoUpdate({
      target: billingClaims.userId,
      set: { key, claimedAt: sql`now()` },
      setWhere: sql`${billingClaims.claimedAt} < now() - ${sql.raw(`interval '${CLAIM_LAPSE_SECONDS} seconds'`)}`,
    })
    .returning({ userId: billingClaims.userId });
  if (claimed.length === 0) throw conflict(BILLING_MESSAGES.changeInProgress);
  try {
    return await work(key);
  } finally {
    await db.delete(billingClaims).where(and(eq(billingClaims.userId, userId), eq(billingClaims.key, key)));
  }
}
