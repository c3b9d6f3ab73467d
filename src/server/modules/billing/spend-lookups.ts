import { and, eq, inArray } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { creditLedger, tracks, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { UserRow } from '../auth/user-view';

/** What a single download's spend and an album's spend both look up (ledger-service.ts, album-spend.ts). */

/** Thrown inside a spend transaction to roll it back when the idempotency key was already used. */
export class AlreadySpent extends Error {}

/** A spend names only the user's own tracks: a stranger's id (or a deleted track) is refused. */
export const requireOwnTracks = async (db: Db, userId: number, trackIds: readonly number[]) => {
  if (trackIds.length === 0) return;
  const rows = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(inArray(tracks.id, [...trackIds]), eq(tracks.userId, userId)));
  if (rows.length !== new Set(trackIds).size)
    throw new AppError(404, 'not_found', BILLING_MESSAGES.spendTrackNotFound);
};

export const userRow = async (db: Db, userId: number): Promise<UserRow> => {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new AppError(404, 'not_found', 'User not found');
  return row;
};

/** The ledger row of a spend's reference (its first row, for an album), if the key was used. */
export const findSpend = async (db: Db, reference: string) =>
  (
    await db
      .select({ currency: creditLedger.currency, request: creditLedger.request, album: creditLedger.album })
      .from(creditLedger)
      .where(eq(creditLedger.reference, reference))
      .limit(1)
  )[0];
