import { and, count, desc, eq, inArray, lt } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type listSessionsQuery,
  MAX_SESSION_BYTES,
  MAX_SESSIONS_PER_USER,
  SESSION_MESSAGES,
  type SessionBody,
  type SessionList,
  type SessionSummary,
  type SessionView,
} from '../../../shared/api/sessions';
import { quotaExceededMessage } from '../../../shared/api/tracks';
import { isGenre } from '../../../shared/genres';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { mixerSessions, tracks } from '../../db/schema';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors';
import { lockOwner, usedBytes } from '../tracks/storage-usage';

type SessionRow = typeof mixerSessions.$inferSelect;

const toSummary = (r: SessionRow): SessionSummary => ({
  id: r.id,
  name: r.name,
  vocalTrackId: r.vocalTrackId,
  instrumentalTrackId: r.instrumentalTrackId,
  style: r.style as SessionSummary['style'],
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toView = (r: SessionRow): SessionView => ({
  ...toSummary(r),
  vocalDuration: r.vocalDuration,
  instrumentalDuration: r.instrumentalDuration,
  clips: r.clips,
  outputVolume: r.outputVolume,
  genre: isGenre(r.genre) ? r.genre : null,
  songFacts: r.songFacts ?? null,
  pitch: r.pitch ?? null,
  vocalChain: r.vocalChain ?? null,
});

/** Saved mixer arrangements; every read and write is scoped to the owner. */
export function createSessionsService(db: Db, quotaBytes: number) {
  /** A session may only point at the user's own tracks: anyone else's id reads as invalid, like a missing one. */
  async function assertOwnTracks(userId: number, body: SessionBody) {
    const ids = [body.vocalTrackId, body.instrumentalTrackId].filter((v): v is number => v !== null);
    if (ids.length === 0) return;
    const own = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.userId, userId), inArray(tracks.id, ids)));
    if (own.length !== new Set(ids).size) throw badRequest(MESSAGES.invalidTrackId, 'invalid_track');
  }

  const columns = (body: SessionBody) => ({
    name: body.name,
    vocalTrackId: body.vocalTrackId,
    instrumentalTrackId: body.instrumentalTrackId,
    vocalDuration: body.vocalDuration,
    instrumentalDuration: body.instrumentalDuration,
    clips: body.clips,
    style: body.style,
    outputVolume: body.outputVolume,
    genre: body.genre,
    songFacts: body.songFacts,
    pitch: body.pitch,
    vocalChain: body.vocalChain,
  });

  /** The row's columns and their size; a session over MAX_SESSION_BYTES is refused before any lock. */
  const measured = (body: SessionBody) => {
    const cols = columns(body);
    const sizeBytes = Buffer.byteLength(JSON.stringify(cols));
    if (sizeBytes > MAX_SESSION_BYTES)
      throw new AppError(413, 'session_too_large', SESSION_MESSAGES.tooLarge);
    return { ...cols, sizeBytes };
  };
  const quotaError = () =>
    new AppError(413, 'storage_quota_exceeded', quotaExceededMessage(quotaBytes, 'save this session'));
  const notSignedIn = () => unauthorized(MESSAGES.notSignedIn);

  return {
    async list(userId: number, q: z.infer<typeof listSessionsQuery>): Promise<SessionList> {
      const rows = await db
        .select()
        .from(mixerSessions)
        .where(and(eq(mixerSessions.userId, userId), q.before ? lt(mixerSessions.id, q.before) : undefined))
        .orderBy(desc(mixerSessions.id))
        .limit(q.limit + 1);
      const page = rows.slice(0, q.limit);
      return {
        sessions: page.map(toSummary),
        nextCursor: rows.length > q.limit ? page[page.length - 1]!.id : null,
      };
    },

    async get(userId: number, id: number): Promise<SessionView> {
      const [row] = await db
        .select()
        .from(mixerSessions)
        .where(and(eq(mixerSessions.id, id), eq(mixerSessions.userId, userId)));
      if (!row) throw notFound('Session not found');
      return toView(row);
    },

    async create(userId: number, body: SessionBody): Promise<SessionView> {
      await assertOwnTracks(userId, body);
      const values = measured(body);
      const row = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        if (!(await lockOwner(tx, userId))) throw notSignedIn();
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(mixerSessions)
          .where(eq(mixerSessions.userId, userId));
        if (n >= MAX_SESSIONS_PER_USER) throw conflict(SESSION_MESSAGES.tooMany, 'too_many_sessions');
        if ((await usedBytes(tx, userId)) + values.sizeBytes > quotaBytes) throw quotaError();
        const [inserted] = await tx
          .insert(mixerSessions)
          .values({ userId, ...values })
          .returning();
        return inserted!;
      });
      return toView(row);
    },

    async update(userId: number, id: number, body: SessionBody): Promise<SessionView> {
      await assertOwnTracks(userId, body);
      const values = measured(body);
      const row = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        if (!(await lockOwner(tx, userId))) throw notSignedIn();
        const [old] = await tx
          .select({ sizeBytes: mixerSessions.sizeBytes })
          .from(mixerSessions)
          .where(and(eq(mixerSessions.id, id), eq(mixerSessions.userId, userId)));
        if (!old) throw notFound('Session not found');
        // Only growth needs room: a session saved smaller always fits, even past a lowered quota.
        const growth = values.sizeBytes - old.sizeBytes;
        if (growth > 0 && (await usedBytes(tx, userId)) + growth > quotaBytes) throw quotaError();
        const [updated] = await tx
          .update(mixerSessions)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(mixerSessions.id, id), eq(mixerSessions.userId, userId)))
          .returning();
        return updated!;
      });
      return toView(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      const gone = await db
        .delete(mixerSessions)
        .where(and(eq(mixerSessions.id, id), eq(mixerSessions.userId, userId)))
        .returning({ id: mixerSessions.id });
      if (gone.length === 0) throw notFound('Session not found');
    },

    async deleteAllForUser(userId: number): Promise<void> {
      await db.delete(mixerSessions).where(eq(mixerSessions.userId, userId));
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
