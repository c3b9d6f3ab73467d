import { and, desc, eq, getTableColumns, getTableName, gt, lt, ne, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken, newToken } from '../../security/tokens';
import { createBatchLoader } from './batch-loader';
import type { UserRow } from './user-view';

/** Live sessions one account may hold; a new sign-in beyond it ends the one unused longest (decision 171). */
export const SESSIONS_PER_USER = 10;
/** How stale a session's "last seen" may get before a request refreshes it (one write per session per 5 min). */
export const LAST_SEEN_REFRESH_MS = 5 * 60 * 1000;
/** The User-Agent kept with a session: enough to name the browser and the system. */
const USER_AGENT_MAX = 512;

/** The users columns, in the order the session query selects them after the session's own two columns. */
const USER_COLUMNS = Object.entries(getTableColumns(users));
const SESSION_COLUMNS = 2;

/**
 * The per-request session lookup, written out rather than built by drizzle: its row mapping cost more than
 * the query (decision 082). The column list comes from the drizzle schema, so it cannot drift from it.
 */
const SESSION_RESOLVE_SQL = `SELECT s.${sessions.idHash.name}, s.${sessions.lastSeenAt.name}, ${USER_COLUMNS.map(([, c]) => `u.${c.name}`).join(', ')}
  FROM ${getTableName(sessions)} s JOIN ${getTableName(users)} u ON u.${users.id.name} = s.${sessions.userId.name}
  WHERE s.${sessions.idHash.name} = ANY($1::text[]) AND s.${sessions.expiresAt.name} > $2`;

/** One row of SESSION_RESOLVE_SQL as the user it belongs to (the driver has already parsed the values). */
function userOf(row: unknown[]): UserRow {
  const user: Record<string, unknown> = {};
  for (let i = 0; i < USER_COLUMNS.length; i++) user[USER_COLUMNS[i][0]] = row[i + SESSION_COLUMNS];
  return user as UserRow;
}

/** Where a sign-in came from, as the request showed it. */
export interface SessionOrigin {
  userAgent?: string | undefined;
  address?: string | undefined;
  /** The session the browser held before this sign-in: it ends first, so it takes no other's place. */
  replacesToken?: string | null | undefined;
}

/** A session as its owner sees it in Settings (GET /api/auth/sessions). */
export interface SessionRow {
  publicId: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  address: string | null;
  current: boolean;
}

/**
 * Sessions are rows: the client holds a random token, the table holds its digest, an expiry, and what the
 * owner needs to recognise it (browser, address, last use). At most SESSIONS_PER_USER live at once.
 */
export function createSessionService(database: Database, ttlSeconds: number) {
  const db = database.db;
  const loadByHash = createBatchLoader(async (hashes: string[]) => {
    const rows = await database.queryArrays('session_resolve', SESSION_RESOLVE_SQL, [hashes, new Date()]);
    return new Map(rows.map((row) => [row[0] as string, { lastSeenAt: row[1] as Date, user: userOf(row) }]));
  });

  /** Sessions whose refresh is on its way, so a burst of requests writes once. */
  const touching = new Set<string>();
  const touch = (hash: string, address: string | undefined) => {
    if (touching.has(hash)) return;
    touching.add(hash);
    db.update(sessions)
      .set({ lastSeenAt: sql`now()`, ...(address ? { address } : {}) })
      // Conditional, so the refreshes of several instances (or of requests that read the row before the
      // first refresh landed) write once.
      .where(
        and(
          eq(sessions.idHash, hash),
          lt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${LAST_SEEN_REFRESH_MS / 1000})`),
        ),
      )
      // A refresh lost to a database hiccup only leaves "last seen" a few minutes older: nothing to report.
      .catch(() => {})
      .finally(() => touching.delete(hash));
  };

  return {
    ttlSeconds,

    /**
     * A new session, and the account's cap kept in the same transaction: the user row is locked first, so
     * ten sign-ins at once still leave SESSIONS_PER_USER, and expired rows of the account go too.
     */
    async create(userId: number, origin: SessionOrigin = {}): Promise<string> {
      const token = newToken();
      const idHash = hashToken(token);
      await db.transaction(async (tx) => {
        // NO KEY: as every user-row lock (decision 159), so it cannot deadlock with a foreign key check.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
        if (origin.replacesToken)
          await tx.delete(sessions).where(eq(sessions.idHash, hashToken(origin.replacesToken)));
        await tx.insert(sessions).values({
          idHash,
          userId,
          expiresAt: new Date(Date.now() + ttlSeconds * 1000),
          userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX) || null,
          address: origin.address || null,
        });
        await tx.execute(sql`
          DELETE FROM sessions WHERE user_id = ${userId} AND id_hash <> ${idHash}
            AND (expires_at <= now() OR id_hash NOT IN (
              SELECT id_hash FROM sessions
              WHERE user_id = ${userId} AND id_hash <> ${idHash} AND expires_at > now()
              ORDER BY last_seen_at DESC, created_at DESC
              LIMIT ${SESSIONS_PER_USER - 1}))`);
      });
      return token;
    },

    /**
     * Every API request resolves its session here: one prepared, batched query per event-loop turn. A
     * session last seen more than LAST_SEEN_REFRESH_MS ago is refreshed (with the address) after the answer.
     */
    async resolve(token: string, address?: string): Promise<UserRow | null> {
      if (token.length < 20 || token.length > 100) return null;
      const hash = hashToken(token);
      const found = await loadByHash(hash);
      if (!found) return null;
      if (Date.now() - found.lastSeenAt.getTime() > LAST_SEEN_REFRESH_MS) touch(hash, address);
      return found.user;
    },

    /** The account's live sessions, the one in use first, then by last use. */
    async list(userId: number, currentToken: string | null): Promise<SessionRow[]> {
      const currentHash = currentToken ? hashToken(currentToken) : null;
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
      return rows
        .map((r) => ({
          publicId: r.publicId,
          createdAt: r.createdAt,
          lastSeenAt: r.lastSeenAt,
          userAgent: r.userAgent,
          address: r.address,
          current: r.idHash === currentHash,
        }))
        .sort((a, b) => Number(b.current) - Number(a.current));
    },

    async revoke(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
    },

    /**
     * Ends one session of the account by its public id: 'none' when the account has no such session,
     * 'current' when it was the one `currentToken` holds.
     */
    async revokeById(
      userId: number,
      publicId: string,
      currentToken: string | null,
    ): Promise<'none' | 'current' | 'other'> {
      const [gone] = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
        .returning({ idHash: sessions.idHash });
      if (!gone) return 'none';
      return currentToken && gone.idHash === hashToken(currentToken) ? 'current' : 'other';
    },

    async revokeAll(userId: number, tx: Db = db): Promise<void> {
      await tx.delete(sessions).where(eq(sessions.userId, userId));
    },

    /** Every session of the account but `keepToken`'s (all of them when it is null). */
    async revokeOthers(userId: number, keepToken: string | null, tx: Db = db): Promise<void> {
      const others = keepToken
        ? and(eq(sessions.userId, userId), ne(sessions.idHash, hashToken(keepToken)))
        : eq(sessions.userId, userId);
      await tx.delete(sessions).where(others);
    },

    async sweepExpired(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
