import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { BILLING_MESSAGES, type SpendCreditResponse } from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { AppError } from '../../errors';
import { toPublicUser, type UserRow } from '../auth/user-view';

export type Currency = 'mix' | 'mastering' | 'crown';
export type SpendType = 'mix' | 'mastering';

/** The balance column of each currency. */
const COLUMN = {
  mix: users.mixCredits,
  mastering: users.masteringCredits,
  crown: users.crowns,
} as const;
const FIELD = { mix: 'mixCredits', mastering: 'masteringCredits', crown: 'crowns' } as const;

/** A transaction handle or the database: both run the same queries. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export interface GrantInput {
  userId: number;
  currency: Currency;
  amount: number;
  reason: string;
  /** Unique: the same grant offered twice (a redelivered event) is applied once. */
  reference: string;
}

/**
 * Adds to a balance and writes its ledger row, in the caller's transaction. The ledger row goes first:
 * when its reference already exists nothing else happens and false comes back.
 */
export async function grant(tx: Tx, g: GrantInput): Promise<boolean> {
  if (g.amount <= 0) return false;
  const inserted = await tx
    .insert(creditLedger)
    .values({
      userId: g.userId,
      currency: g.currency,
      delta: g.amount,
      reason: g.reason,
      reference: g.reference,
    })
    .onConflictDoNothing({ target: creditLedger.reference })
    .returning({ id: creditLedger.id });
  if (inserted.length === 0) return false;
  const column = COLUMN[g.currency];
  await tx
    .update(users)
    .set({ [FIELD[g.currency]]: sql`${column} + ${g.amount}` })
    .where(eq(users.id, g.userId));
  return true;
}

/** Thrown inside the spend transaction to roll it back when the idempotency key was already used. */
class AlreadySpent extends Error {}

const refusal = (status: number, code: string, message: string) => new AppError(status, code, message);

const spendMessage = (currency: Currency) =>
  currency === 'crown' ? 'Used 1 crown' : `Used 1 ${currency === 'mix' ? 'mix' : 'mastering'} credit`;

export function createLedgerService(db: Db) {
  const findSpend = async (reference: string) =>
    (
      await db
        .select({ currency: creditLedger.currency })
        .from(creditLedger)
        .where(eq(creditLedger.reference, reference))
        .limit(1)
    )[0];

  const currentUser = async (userId: number): Promise<UserRow> => {
    const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!row) throw new AppError(404, 'not_found', 'User not found');
    return row;
  };

  const replay = async (userId: number, currency: string): Promise<SpendCreditResponse> => ({
    success: true,
    message: `${spendMessage(currency as Currency)} (already charged for this download)`,
    user: toPublicUser(await currentUser(userId)),
  });

  return {
    /**
     * Spends one credit or crown for one download. The balance changes only through a conditional UPDATE
     * (`... WHERE balance >= 1 RETURNING`) inside the transaction that writes the ledger row; the database,
     * not JavaScript, decides whether there is something left to spend. Pro spends the specific credit
     * first and falls back to crowns with a second conditional UPDATE, reached only when the first matched
     * no row; Unlimited spends crowns. The idempotency key becomes the ledger row's unique reference, so
     * a retried request spends once.
     */
    async spend(
      userId: number,
      type: SpendType,
      idempotencyKey: string,
      /** Issue 18: what a mastering download delivered (versions and formats), kept on the spend's row. */
      delivered: { versions: string[]; formats: string[] } | null = null,
    ): Promise<SpendCreditResponse> {
      const reference = `spend:${userId}:${idempotencyKey}`;
      const earlier = await findSpend(reference);
      if (earlier) return replay(userId, earlier.currency);
      try {
        return await db.transaction(async (tx) => {
          const specific = COLUMN[type];
          let currency: Currency = type;
          let [row] = await tx
            .update(users)
            .set({ [FIELD[type]]: sql`${specific} - 1` })
            .where(and(eq(users.id, userId), eq(users.subscriptionType, 'pro'), gte(specific, 1)))
            .returning();
          if (!row) {
            currency = 'crown';
            [row] = await tx
              .update(users)
              .set({ crowns: sql`${users.crowns} - 1` })
              .where(and(eq(users.id, userId), isNotNull(users.subscriptionType), gte(users.crowns, 1)))
              .returning();
          }
          if (!row) {
            const [who] = await tx
              .select({ subscriptionType: users.subscriptionType })
              .from(users)
              .where(eq(users.id, userId));
            if (!who?.subscriptionType) {
              throw refusal(
                403,
                'subscription_required',
                type === 'mix'
                  ? BILLING_MESSAGES.subscriptionRequiredMix
                  : BILLING_MESSAGES.subscriptionRequiredMastering,
              );
            }
            throw refusal(
              402,
              'no_credits',
              type === 'mix' ? BILLING_MESSAGES.noCreditsMix : BILLING_MESSAGES.noCreditsMastering,
            );
          }
          const written = await tx
            .insert(creditLedger)
            .values({ userId, currency, delta: -1, reason: `spend_${type}`, reference, delivered })
            .onConflictDoNothing({ target: creditLedger.reference })
            .returning({ id: creditLedger.id });
          // A concurrent request with the same key committed first: undo this one's UPDATE.
          if (written.length === 0) throw new AlreadySpent();
          return { success: true, message: spendMessage(currency), user: toPublicUser(row) };
        });
      } catch (err) {
        if (err instanceof AlreadySpent) {
          const first = await findSpend(reference);
          return replay(userId, first?.currency ?? type);
        }
        if (err instanceof AppError) {
          // The same key may have been spent by a concurrent request that emptied the balance.
          const first = await findSpend(reference);
          if (first) return replay(userId, first.currency);
        }
        throw err;
      }
    },

    /** Per-currency sums of a user's ledger, for checks and tests: they equal the balance columns. */
    async sums(userId: number): Promise<Record<Currency, number>> {
      const rows = await db
        .select({
          currency: creditLedger.currency,
          total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int`,
        })
        .from(creditLedger)
        .where(eq(creditLedger.userId, userId))
        .groupBy(creditLedger.currency);
      const out: Record<Currency, number> = { mix: 0, mastering: 0, crown: 0 };
      for (const r of rows) out[r.currency as Currency] = Number(r.total);
      return out;
    },
  };
}
export type LedgerService = ReturnType<typeof createLedgerService>;
