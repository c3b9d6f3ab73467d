import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken, newToken } from '../../security/tokens';
import type { UserRow } from './user-view';

/** Sessions are rows: the client holds a random token, the table holds its digest and an expiry. */
export function createSessionService(db: Db, ttlSeconds: number) {
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
    async resolve(token: string): Promise<UserRow | null> {
      if (token.length < 20 || token.length > 100) return null;
      const rows = await db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.idHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
        .limit(1);
      return rows[0]?.user ?? null;
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
