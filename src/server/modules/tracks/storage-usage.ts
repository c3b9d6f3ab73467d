import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/**
 * The one definition of what counts toward STORAGE_QUOTA_BYTES: stored audio, saved mixer sessions and the
 * kept files of paid masters (issue 30, decision 226).
 * Both uploads and session saves check it, each inside a transaction holding `lockOwner`.
 */
export async function usedBytes(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({
      // Bound values, not column references: drizzle prints columns unqualified here, and a bare "id"
      // inside a subquery would name the subquery's own table.
      used: sql<number>`(
        coalesce((select sum(size_bytes) from tracks where user_id = ${userId}), 0) +
        coalesce((select sum(size_bytes) from mixer_sessions where user_id = ${userId}), 0) +
        coalesce((select sum(size_bytes) from master_files where user_id = ${userId}), 0)
      )::float8`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.used ?? 0;
}

/**
 * Locks the user row for the rest of the transaction, so one user's concurrent writes are checked against
 * the quota (and the session cap) one after another: a sum read outside the lock lets every one through.
 * False when the account no longer exists (deleted meanwhile).
 */
export async function lockOwner(tx: Db, userId: number): Promise<boolean> {
  // FOR NO KEY UPDATE, as every user-row lock (decision 159): it conflicts with itself, so the writes still
  // queue, but not with the foreign key check of an insert that references the user (sessions, payments),
  // which could deadlock with FOR UPDATE while the row is being updated.
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return owner !== undefined;
}
