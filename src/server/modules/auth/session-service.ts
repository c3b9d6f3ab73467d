import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken, newToken } from '../../security/tokens';
import { createBatchLoader } from './batch-loader';
import type { UserRow } from './user-view';

/** Sessions are rows: the client holds a random token, the table holds its digest and an expiry. */
export function createSessionService(db: Db, ttlSeconds: number) {
  // Built once: drizzle's query building per call cost more than the query itself (profiled under load).
  const byHashes = db
    .select({ idHash: sessions.idHash, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        sql`${sessions.idHash} = ANY(${sql.placeholder('hashes')}::text[])`,
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('session_resolve');
  const loadByHash = createBatchLoader(async (hashes: string[]) => {
    const rows = await byHashes.execute({ hashes, now: new Date() });
    return new Map(rows.map((r) => [r.idHash, r.user]));
  });
  return {
    ttlSeconds,
    async create(userId: number): Promise<string> {
      const token = newToken();
      await db.insert(sessions).values({
        idHash: hashToken(token),
        userId,
        expiresAt: new Date(Date.now() + ttlSeconds * 1000),
      });
      return token;
    },
    /** Every API request resolves its session here: one prepared, batched query per event-loop turn. */
    async resolve(token: string): Promise<UserRow | null> {
      if (token.length < 20 || token.length > 100) return null;
      return (await loadByHash(hashToken(token))) ?? null;
    },
    async revoke(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
    },
    async revokeAll(userId: number, tx: Db = db): Promise<void> {
      await tx.delete(sessions).where(eq(sessions.userId, userId));
    },
    async sweepExpired(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
