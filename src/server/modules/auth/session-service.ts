import { eq, getTableColumns, getTableName, lt } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken, newToken } from '../../security/tokens';
import { createBatchLoader } from './batch-loader';
import type { UserRow } from './user-view';

/** The users columns, in the order the session query selects them after the session's id_hash. */
const USER_COLUMNS = Object.entries(getTableColumns(users));

/**
 * The per-request session lookup, written out rather than built by drizzle: its row mapping cost more than
 * the query (decision 082). The column list comes from the drizzle schema, so it cannot drift from it.
 */
const SESSION_RESOLVE_SQL = `SELECT s.${sessions.idHash.name}, ${USER_COLUMNS.map(([, c]) => `u.${c.name}`).join(', ')}
  FROM ${getTableName(sessions)} s JOIN ${getTableName(users)} u ON u.${users.id.name} = s.${sessions.userId.name}
  WHERE s.${sessions.idHash.name} = ANY($1::text[]) AND s.${sessions.expiresAt.name} > $2`;

/** One row of SESSION_RESOLVE_SQL as the user it belongs to (the driver has already parsed the values). */
function userOf(row: unknown[]): UserRow {
  const user: Record<string, unknown> = {};
  for (let i = 0; i < USER_COLUMNS.length; i++) user[USER_COLUMNS[i][0]] = row[i + 1];
  return user as UserRow;
}

/** Sessions are rows: the client holds a random token, the table holds its digest and an expiry. */
export function createSessionService(database: Database, ttlSeconds: number) {
  const db = database.db;
  const loadByHash = createBatchLoader(async (hashes: string[]) => {
    const rows = await database.queryArrays('session_resolve', SESSION_RESOLVE_SQL, [hashes, new Date()]);
    return new Map(rows.map((row) => [row[0] as string, userOf(row)]));
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
