import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { BILLING_MESSAGES, type SpendAlbumBody, type SpendCreditResponse } from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { AppError } from '../../errors';
import { toPublicUser } from '../auth/user-view';
import { spendAlbum } from './album-spend';
import { AlreadySpent, findSpend, requireOwnTracks, userRow } from './spend-lookups';
import { deliveredOf, type SpendRequest, sameSpendRequest } from './spend-request';

export type Currency = 'mix' | 'mastering' | 'crown';
/** The request column of a spend's ledger row: a single download's or an album's. */
export type StoredSpendRequest = NonNullable<(typeof creditLedger.$inferSelect)['request']>;
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

const refusal = (status: number, code: string, message: string) => new AppError(status, code, message);

const spendMessage = (currency: Currency) =>
  currency === 'crown' ? 'Used 1 crown' : `Used 1 ${currency === 'mix' ? 'mix' : 'mastering'} credit`;

export function createLedgerService(db: Db) {
  const requireOwnTrack = (userId: number, trackId: number) => requireOwnTracks(db, userId, [trackId]);
  const currentUser = (userId: number) => userRow(db, userId);

  /**
   * The answer to a key already spent: the stored result when the request is the one it was spent for,
   * otherwise 409 and nothing spent (issue 29: a mastering key replayed for a mix was a free mix).
   */
  const replay = async (
    userId: number,
    earlier: { currency: string; request: StoredSpendRequest | null },
    request: SpendRequest,
  ): Promise<SpendCreditResponse> => {
    // A key spent on an album answers only that album (album-spend.ts).
    if (!earlier.request || earlier.request.type === 'album' || !sameSpendRequest(earlier.request, request)) {
      throw refusal(409, 'idempotency_key_reused', BILLING_MESSAGES.spendKeyReused);
    }
    return {
      success: true,
      message: `${spendMessage(earlier.currency as Currency)} (already charged for this download)`,
      user: toPublicUser(await currentUser(userId)),
    };
  };

  return {
    /**
     * Spends one credit or crown for one download. The balance changes only through a conditional UPDATE
     * (`... WHERE balance >= 1 RETURNING`) inside the transaction that writes the ledger row; the database,
     * not JavaScript, decides whether there is something left to spend. Pro spends the specific credit
     * first and falls back to crowns with a second conditional UPDATE, reached only when the first matched
     * no row. Every plan does so (decision 220): an Unlimited subscriber who kept Pro's credits through an
     * upgrade spends them before a crown, as the upgrade promised to keep them. The idempotency key becomes the ledger row's unique reference, so
     * a retried request spends once; the row keeps the request, so the key answers only that request.
     */
    async spend(userId: number, request: SpendRequest, idempotencyKey: string): Promise<SpendCreditResponse> {
      const { type } = request;
      const reference = `spend:${userId}:${idempotencyKey}`;
      const earlier = await findSpend(db, reference);
      if (earlier) return replay(userId, earlier, request);
      if (request.trackId !== null) await requireOwnTrack(userId, request.trackId);
      try {
        return await db.transaction(async (tx) => {
          const specific = COLUMN[type];
          let currency: Currency = type;
          let [row] = await tx
            .update(users)
            .set({ [FIELD[type]]: sql`${specific} - 1` })
            .where(and(eq(users.id, userId), isNotNull(users.subscriptionType), gte(specific, 1)))
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
            .values({
              userId,
              currency,
              delta: -1,
              reason: `spend_${type}`,
              reference,
              delivered: deliveredOf(request),
              request,
            })
            .onConflictDoNothing({ target: creditLedger.reference })
            .returning({ id: creditLedger.id });
          // A concurrent request with the same key committed first: undo this one's UPDATE.
          if (written.length === 0) throw new AlreadySpent();
          return { success: true, message: spendMessage(currency), user: toPublicUser(row) };
        });
      } catch (err) {
        if (err instanceof AlreadySpent) {
          const first = await findSpend(db, reference);
          if (!first) throw err; // the unique index refused this row: the first one is there
          return replay(userId, first, request);
        }
        if (err instanceof AppError) {
          // The same key may have been spent by a concurrent request that emptied the balance.
          const first = await findSpend(db, reference);
          if (first) return replay(userId, first, request);
        }
        throw err;
      }
    },

    /** Issue 31: one credit or crown per track of an album, once per key (album-spend.ts). */
    spendAlbum: (userId: number, body: SpendAlbumBody) => spendAlbum(db, userId, body),

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
