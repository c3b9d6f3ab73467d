import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import {
  ARRANGEMENT_MESSAGES,
  type AudioContentType,
  type ListTracksQuery,
  type MixArrangement,
  quotaExceededMessage,
  type TrackKind,
  type TrackList,
  type TrackView,
  type UploadTrackFields,
} from '../../../shared/api/tracks';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { tracks } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import { type ByteRange, ObjectNotFoundError, type Storage, userPrefix } from '../../storage/storage';
import { lockOwner, usedBytes as usedBytesOf } from './storage-usage';
import { type FileStream, sniffUpload } from './upload-stream';

export type TrackRow = typeof tracks.$inferSelect;

/** An object stored completely, not yet described by a row. */
export interface StoredAudio {
  key: string;
  contentType: AudioContentType;
  size: number;
}

export const audioUrlOf = (id: number) => `/api/tracks/${id}/audio`;

export function toTrackView(row: TrackRow): TrackView {
  return {
    id: row.id,
    name: row.name,
    type: row.type as TrackKind,
    audioUrl: audioUrlOf(row.id),
    contentType: row.contentType as AudioContentType,
    size: row.sizeBytes,
    duration: row.duration,
    createdAt: row.createdAt.toISOString(),
    arrangement: row.arrangement ?? null,
  };
}

/**
 * Issue 18: an arrangement belongs only on a mixed track, and must name the user's own vocals and
 * instrumental tracks (ids are never trusted from the browser).
 */
async function assertArrangement(db: Db, userId: number, type: string, a: MixArrangement): Promise<void> {
  if (type !== 'mixed') throw badRequest(ARRANGEMENT_MESSAGES.onlyMixed, 'validation');
  const rows = await db
    .select({ id: tracks.id, type: tracks.type })
    .from(tracks)
    .where(and(eq(tracks.userId, userId), inArray(tracks.id, [a.vocalTrackId, a.instrumentalTrackId])));
  const typeOf = new Map(rows.map((r) => [r.id, r.type]));
  if (typeOf.get(a.vocalTrackId) !== 'vocals' || typeOf.get(a.instrumentalTrackId) !== 'instrumental')
    throw badRequest(ARRANGEMENT_MESSAGES.sources, 'validation');
}

export interface TracksServiceDeps {
  db: Db;
  storage: Storage;
  quotaBytes: number;
  log?: (msg: string, err?: unknown) => void;
}

export function createTracksService(d: TracksServiceDeps) {
  const quotaError = () => new AppError(413, 'storage_quota_exceeded', quotaExceededMessage(d.quotaBytes));

  const usedBytes = (userId: number, tx: Db = d.db) => usedBytesOf(tx, userId);

  async function findOwned(userId: number, id: number): Promise<TrackRow> {
    const [row] = await d.db
      .select()
      .from(tracks)
      .where(and(eq(tracks.id, id), eq(tracks.userId, userId)));
    // Someone else's track and a missing one look the same, so ids cannot be probed.
    if (!row) throw notFound('Track not found');
    return row;
  }

  /** Best effort: a stored object whose upload failed afterwards (bad fields, quota) goes again. */
  async function discard(key: string): Promise<void> {
    await d.storage.delete(key).catch((err) => d.log?.(`could not delete ${key}`, err));
  }

  return {
    usedBytes,
    findOwned,
    discard,

    /** Fails fast, before any byte is read, when the user has no room left at all. */
    async assertRoom(userId: number): Promise<number> {
      const free = d.quotaBytes - (await usedBytes(userId));
      if (free <= 0) throw quotaError();
      return free;
    },

    /**
     * Streams one uploaded file into storage under a fresh server-made key. The type comes from the file's
     * bytes; a refused or broken file leaves no object behind (Storage.put is all-or-nothing).
     */
    async storeAudio(userId: number, file: FileStream, freeBytes: number): Promise<StoredAudio> {
      const { contentType, body } = await sniffUpload(file, { bytes: freeBytes, error: quotaError });
      const key = `${userPrefix(userId)}${randomUUID()}`;
      const { size } = await d.storage.put(key, body, { contentType });
      return { key, contentType, size };
    },

    /**
     * Writes the row for a complete object. The user row is locked so that concurrent uploads of one user
     * are checked against the quota one after another (a sum read outside the lock lets both through).
     */
    async createTrack(userId: number, stored: StoredAudio, fields: UploadTrackFields): Promise<TrackView> {
      const row = await d.db.transaction(async (tx) => {
        const ownerTx = tx as unknown as Db;
        // The account was deleted while the file streamed in: a clear answer, and the route discards the object.
        if (!(await lockOwner(ownerTx, userId)))
          throw new AppError(401, 'account_deleted', MESSAGES.accountGoneDuringUpload);
        if ((await usedBytes(userId, ownerTx)) + stored.size > d.quotaBytes) throw quotaError();
        if (fields.arrangement) await assertArrangement(ownerTx, userId, fields.type, fields.arrangement);
        const [inserted] = await tx
          .insert(tracks)
          .values({
            userId,
            name: fields.name,
            type: fields.type,
            contentType: stored.contentType,
            sizeBytes: stored.size,
            duration: fields.duration,
            storageKey: stored.key,
            arrangement: fields.arrangement ?? null,
          })
          .returning();
        return inserted!;
      });
      return toTrackView(row);
    },

    async get(userId: number, id: number): Promise<TrackView> {
      return toTrackView(await findOwned(userId, id));
    },

    async list(userId: number, q: ListTracksQuery): Promise<TrackList> {
      const rows = await d.db
        .select()
        .from(tracks)
        .where(and(eq(tracks.userId, userId), q.before ? lt(tracks.id, q.before) : undefined))
        .orderBy(desc(tracks.id))
        .limit(q.limit + 1);
      const page = rows.slice(0, q.limit);
      return {
        tracks: page.map(toTrackView),
        nextCursor: rows.length > q.limit ? page[page.length - 1]!.id : null,
        usedBytes: await usedBytes(userId),
        quotaBytes: d.quotaBytes,
      };
    },

    /** Row first (the track is gone for the user at once), then the object. */
    async remove(userId: number, id: number): Promise<void> {
      const [row] = await d.db
        .delete(tracks)
        .where(and(eq(tracks.id, id), eq(tracks.userId, userId)))
        .returning();
      if (!row) throw notFound('Track not found');
      // An object that fails to go stays under the user's prefix and is swept with the account.
      await discard(row.storageKey);
    },

    async openAudio(row: TrackRow, range?: ByteRange): Promise<Readable> {
      try {
        return await d.storage.get(row.storageKey, range);
      } catch (err) {
        if (err instanceof ObjectNotFoundError) {
          d.log?.(`track ${row.id} has no stored object`, err);
          throw notFound('Track not found');
        }
        throw err;
      }
    },

    /** Account deletion: every object under the user's prefix, then the rows. */
    async deleteAllForUser(userId: number): Promise<void> {
      await d.storage.deletePrefix(userPrefix(userId));
      await d.db.delete(tracks).where(eq(tracks.userId, userId));
    },
  };
}
export type TracksService = ReturnType<typeof createTracksService>;
