import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { LibraryItem, LibraryKind, LibraryList, LibraryMaster } from '../../../shared/api/library';
import { LIBRARY_MESSAGES } from '../../../shared/api/library';
import type { SessionClips } from '../../../shared/api/sessions';
import type { AudioContentType, TrackKind } from '../../../shared/api/tracks';
import type { Db } from '../../db/client';
import { masters, mixerSessions, tracks } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import type { Storage } from '../../storage/storage';
import { usedBytes } from '../tracks/storage-usage';
import { audioUrlOf } from '../tracks/tracks-service';
import { deleteObjects, type MastersService } from './masters-service';

/** Each kind lists at most this many of its newest (the page searches rather than scrolls). */
const PER_KIND = 200;

/** `q` as a LIKE pattern that matches it literally, anywhere in the text. */
const pattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const clipCount = (c: SessionClips) => c.vocals.length + c.instrumental.length;

export interface LibraryServiceDeps {
  db: Db;
  storage: Storage;
  masters: MastersService;
  quotaBytes: number;
  log?: (msg: string, err?: unknown) => void;
}

/** The library (issue 30): one list of the user's uploads, mixes, sessions and masters; rename; delete. */
export function createLibraryService(d: LibraryServiceDeps) {
  const { db } = d;

  async function listTracks(userId: number, like: string | null): Promise<LibraryItem[]> {
    const rows = await db
      .select()
      .from(tracks)
      .where(and(eq(tracks.userId, userId), like ? ilike(tracks.name, like) : undefined))
      .orderBy(desc(tracks.id))
      .limit(PER_KIND);
    return rows.map((r): LibraryItem => {
      const common = { id: r.id, name: r.name, createdAt: r.createdAt.toISOString(), sizeBytes: r.sizeBytes };
      const a = r.arrangement;
      if (a)
        return {
          ...common,
          kind: 'mix',
          audioUrl: audioUrlOf(r.id),
          vocalTrackId: a.vocalTrackId,
          instrumentalTrackId: a.instrumentalTrackId,
          vocalShare: a.vocalShare,
          outputVolume: a.outputVolume,
          clipCount: a.clips.length,
          seconds: a.length / a.sampleRate,
          genre: a.genre ?? null,
        };
      return {
        ...common,
        kind: 'upload',
        trackType: r.type as TrackKind,
        contentType: r.contentType as AudioContentType,
        duration: r.duration,
        audioUrl: audioUrlOf(r.id),
      };
    });
  }

  async function listSessions(userId: number, like: string | null): Promise<LibraryItem[]> {
    const rows = await db
      .select()
      .from(mixerSessions)
      .where(and(eq(mixerSessions.userId, userId), like ? ilike(mixerSessions.name, like) : undefined))
      .orderBy(desc(mixerSessions.updatedAt))
      .limit(PER_KIND);
    return rows.map((r) => ({
      kind: 'session',
      id: r.id,
      name: r.name,
      // A session is as new as its last save.
      createdAt: r.updatedAt.toISOString(),
      sizeBytes: r.sizeBytes,
      vocalTrackId: r.vocalTrackId,
      instrumentalTrackId: r.instrumentalTrackId,
      style: r.style as 'balanced' | null,
      outputVolume: r.outputVolume,
      clipCount: clipCount(r.clips),
    }));
  }

  async function listMasters(userId: number, like: string | null): Promise<LibraryItem[]> {
    const found: SQL | undefined = like
      ? or(
          ilike(masters.name, like),
          ilike(masters.preset, like),
          ilike(masters.genre, like),
          ilike(masters.referenceName, like),
        )
      : undefined;
    const rows = await db
      .select()
      .from(masters)
      .where(and(eq(masters.userId, userId), found))
      .orderBy(desc(masters.id))
      .limit(PER_KIND);
    const files = await d.masters.filesOf(rows.map((r) => r.id));
    return rows.map((r): LibraryMaster => {
      const own = files.filter((f) => f.masterId === r.id);
      return {
        kind: 'master',
        id: r.id,
        name: r.name,
        createdAt: r.createdAt.toISOString(),
        sizeBytes: own.reduce((n, f) => n + f.sizeBytes, 0),
        trackId: r.trackId,
        preset: r.preset,
        genre: r.genre,
        referenceName: r.referenceName,
        settings: r.settings,
        figures: r.figures,
        versions: r.versions,
        formats: r.formats as LibraryMaster['formats'],
        files: own.map((f) => ({
          name: f.name,
          sizeBytes: f.sizeBytes,
          url: `/api/masters/${r.id}/files/${f.position}`,
        })),
        keptUntil: r.keptUntil.toISOString(),
      };
    });
  }

  /** Mixes and saved sessions that need this upload to be reopened. */
  async function usesOf(userId: number, trackId: number): Promise<number> {
    const [mixes] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(tracks)
      .where(
        and(
          eq(tracks.userId, userId),
          or(
            sql`(${tracks.arrangement}->>'vocalTrackId')::int = ${trackId}`,
            sql`(${tracks.arrangement}->>'instrumentalTrackId')::int = ${trackId}`,
          ),
        ),
      );
    const [sessions] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(mixerSessions)
      .where(
        and(
          eq(mixerSessions.userId, userId),
          or(eq(mixerSessions.vocalTrackId, trackId), eq(mixerSessions.instrumentalTrackId, trackId)),
        ),
      );
    return (mixes?.n ?? 0) + (sessions?.n ?? 0);
  }

  return {
    async list(userId: number, q?: string): Promise<LibraryList> {
      // Files of masters past their 30 days go first, so the list never offers a download that is gone.
      await d.masters.expire();
      const like = q ? pattern(q) : null;
      const [t, s, m] = await Promise.all([
        listTracks(userId, like),
        listSessions(userId, like),
        listMasters(userId, like),
      ]);
      const items = [...t, ...s, ...m].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
      return { items, usedBytes: await usedBytes(db, userId), quotaBytes: d.quotaBytes };
    },

    async rename(userId: number, kind: LibraryKind, id: number, name: string): Promise<void> {
      const table = kind === 'track' ? tracks : kind === 'session' ? mixerSessions : masters;
      const done = await db
        .update(table)
        .set({ name })
        .where(and(eq(table.id, id), eq(table.userId, userId)))
        .returning({ id: table.id });
      if (done.length === 0) throw notFound(LIBRARY_MESSAGES.notFound);
    },

    /**
     * Rows go in one statement or transaction, objects after the commit; an object whose delete fails has
     * no row left and is removed by the orphan sweep. An upload that a mix or session still uses stays.
     */
    async remove(userId: number, kind: LibraryKind, id: number): Promise<void> {
      if (kind === 'master') return d.masters.remove(userId, id);
      if (kind === 'session') {
        const gone = await db
          .delete(mixerSessions)
          .where(and(eq(mixerSessions.id, id), eq(mixerSessions.userId, userId)))
          .returning({ id: mixerSessions.id });
        if (gone.length === 0) throw notFound(LIBRARY_MESSAGES.notFound);
        return;
      }
      const uses = await usesOf(userId, id);
      if (uses > 0) throw conflict(LIBRARY_MESSAGES.trackInUse(uses), 'track_in_use');
      const [row] = await db
        .delete(tracks)
        .where(and(eq(tracks.id, id), eq(tracks.userId, userId)))
        .returning({ key: tracks.storageKey });
      if (!row) throw notFound(LIBRARY_MESSAGES.notFound);
      await deleteObjects(d.storage, [row.key], d.log);
    },
  };
}
export type LibraryService = ReturnType<typeof createLibraryService>;
