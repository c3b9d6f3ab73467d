import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { LIBRARY_MESSAGES, MASTER_REDOWNLOAD_DAYS, type MasterMeta } from '../../../shared/api/library';
import { quotaExceededMessage } from '../../../shared/api/tracks';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { creditLedger, masterFiles, masters } from '../../db/schema';
import { AppError, conflict, notFound } from '../../errors';
import { ObjectNotFoundError, type Storage, userPrefix } from '../../storage/storage';
import { lockOwner, usedBytes } from '../tracks/storage-usage';
import type { FileStream } from '../tracks/upload-stream';
import { allowedKinds, contentTypeOf, guardedBody, type KeptKind, keptName } from './master-file-guard';

const DAY_MS = 86_400_000;

/** A mastering spend of this user, found by the key it was made with (the browser's word is only the key). */
export interface PaidSpend {
  reference: string;
  trackId: number | null;
  versions: string[];
  formats: string[];
  paidAt: Date;
  /** An album download (POST /api/spend-album): it was handed over as one ZIP, and only that is kept. */
  album: boolean;
}

export interface KeptFile {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/** Deletes each object, logging (not throwing) a failure: the orphan sweep removes what is left. */
export async function deleteObjects(storage: Storage, keys: string[], log?: (m: string, e: unknown) => void) {
  for (const key of keys) await storage.delete(key).catch((err) => log?.(`could not delete ${key}`, err));
}

/**
 * Masters past their 30 days lose their files (rows first; objects after, or by the orphan sweep when a
 * delete fails): the master stays in the library with its settings and figures, without a download.
 */
export async function expireMasterFiles(db: Db, now: Date, storage?: Storage): Promise<number> {
  const expired = db.select({ id: masters.id }).from(masters).where(lt(masters.keptUntil, now));
  const gone = await db
    .delete(masterFiles)
    .where(inArray(masterFiles.masterId, expired))
    .returning({ key: masterFiles.storageKey });
  if (storage)
    await deleteObjects(
      storage,
      gone.map((g) => g.key),
    );
  return gone.length;
}

export interface MastersServiceDeps {
  db: Db;
  storage: Storage;
  quotaBytes: number;
  now?: () => Date;
  log?: (msg: string, err?: unknown) => void;
}

/** Paid masters kept for the library (decision 226): stored once after the spend, read back for free. */
export function createMastersService(d: MastersServiceDeps) {
  const now = () => d.now?.() ?? new Date();
  const quotaError = () =>
    new AppError(413, 'storage_quota_exceeded', quotaExceededMessage(d.quotaBytes, 'keep this master'));

  return {
    /** The user's mastering spend made with `spendKey`, with what it paid for; 404 when there is none. */
    async paidSpend(userId: number, spendKey: string): Promise<PaidSpend> {
      const [row] = await d.db
        .select()
        .from(creditLedger)
        .where(
          and(
            eq(creditLedger.reference, `spend:${userId}:${spendKey}`),
            eq(creditLedger.userId, userId),
            inArray(creditLedger.reason, ['spend_mastering', 'spend_album']),
          ),
        )
        .limit(1);
      // An album's first ledger row carries the album (decision 283); a single download's, its request.
      const album = row?.request?.type === 'album' ? row.request.album : null;
      const request = row?.request?.type === 'album' ? null : row?.request;
      const formats = album?.formats ?? request?.formats ?? row?.delivered?.formats ?? null;
      if (!row?.reference || !formats?.length)
        throw new AppError(404, 'spend_not_found', LIBRARY_MESSAGES.spendUnknown);
      const [kept] = await d.db
        .select({ id: masters.id })
        .from(masters)
        .where(eq(masters.spendReference, row.reference));
      if (kept) throw conflict(LIBRARY_MESSAGES.alreadyKept, 'already_kept');
      return {
        reference: row.reference,
        trackId: album ? null : (request?.trackId ?? null),
        versions: album ? ['main'] : (request?.versions ?? row.delivered?.versions ?? ['main']),
        formats,
        paidAt: row.createdAt,
        album: album !== null,
      };
    },

    allowedKinds: (spend: PaidSpend) => allowedKinds(spend.formats, spend.versions, spend.album),
    keptName,

    /** Room left for the user's files (checked again, under the lock, when the row is written). */
    async freeBytes(userId: number): Promise<number> {
      const free = d.quotaBytes - (await usedBytes(d.db, userId));
      if (free <= 0) throw quotaError();
      return free;
    },

    /** Streams one file into storage under a fresh server-made key; a refused file leaves nothing. */
    async storeFile(userId: number, file: FileStream, kind: KeptKind, name: string, limit: number) {
      const key = `${userPrefix(userId)}m-${randomUUID()}`;
      const contentType = contentTypeOf(kind);
      const body = guardedBody(file, kind, limit, quotaError);
      const { size } = await d.storage.put(key, body, { contentType });
      return { key, name, contentType, size } satisfies KeptFile;
    },

    /** The master's row and its files' rows in one transaction, under the owner's lock (quota, one per spend). */
    async create(userId: number, spend: PaidSpend, meta: MasterMeta, files: KeptFile[]): Promise<number> {
      return d.db.transaction(async (t) => {
        const tx = t as unknown as Db;
        if (!(await lockOwner(tx, userId)))
          throw new AppError(401, 'account_deleted', MESSAGES.accountGoneDuringUpload);
        const total = files.reduce((n, f) => n + f.size, 0);
        if ((await usedBytes(tx, userId)) + total > d.quotaBytes) throw quotaError();
        const [row] = await tx
          .insert(masters)
          .values({
            userId,
            trackId: spend.trackId,
            name: meta.name,
            spendReference: spend.reference,
            preset: meta.preset,
            genre: meta.genre,
            referenceName: meta.referenceName,
            settings: meta.settings,
            figures: meta.figures,
            versions: spend.versions,
            formats: spend.formats,
            keptUntil: new Date(spend.paidAt.getTime() + MASTER_REDOWNLOAD_DAYS * DAY_MS),
          })
          .onConflictDoNothing({ target: masters.spendReference })
          .returning({ id: masters.id });
        if (!row) throw conflict(LIBRARY_MESSAGES.alreadyKept, 'already_kept');
        if (files.length > 0)
          await tx.insert(masterFiles).values(
            files.map((f, position) => ({
              masterId: row.id,
              userId,
              position,
              name: f.name,
              contentType: f.contentType,
              sizeBytes: f.size,
              storageKey: f.key,
            })),
          );
        return row.id;
      });
    },

    discard: (keys: string[]) => deleteObjects(d.storage, keys, d.log),

    /** One kept file of the user's master, while it is kept: reading it never spends anything. */
    async openFile(userId: number, masterId: number, position: number) {
      const [row] = await d.db
        .select({ file: masterFiles, keptUntil: masters.keptUntil })
        .from(masterFiles)
        .innerJoin(masters, eq(masters.id, masterFiles.masterId))
        .where(and(eq(masters.id, masterId), eq(masters.userId, userId), eq(masterFiles.position, position)));
      if (!row) {
        const [master] = await d.db
          .select({ id: masters.id })
          .from(masters)
          .where(and(eq(masters.id, masterId), eq(masters.userId, userId)));
        if (master) throw new AppError(410, 'expired', LIBRARY_MESSAGES.expired);
        throw notFound(LIBRARY_MESSAGES.notFound);
      }
      if (row.keptUntil <= now()) throw new AppError(410, 'expired', LIBRARY_MESSAGES.expired);
      try {
        const stream: Readable = await d.storage.get(row.file.storageKey);
        return { file: row.file, stream };
      } catch (err) {
        if (err instanceof ObjectNotFoundError) throw notFound(LIBRARY_MESSAGES.notFound);
        throw err;
      }
    },

    /** The files of some masters, in order (the library lists them). */
    async filesOf(masterIds: number[]) {
      if (masterIds.length === 0) return [];
      return d.db
        .select()
        .from(masterFiles)
        .where(inArray(masterFiles.masterId, masterIds))
        .orderBy(asc(masterFiles.masterId), asc(masterFiles.position));
    },

    /**
     * The master and its files' rows go in one transaction (all or nothing); the objects after the commit.
     * An object whose delete fails has no row any more, so the orphan sweep removes it: nothing is left
     * half-deleted in the database, and nothing stays stored for good.
     */
    async remove(userId: number, id: number): Promise<void> {
      const keys = await d.db.transaction(async (t) => {
        const files = await t
          .delete(masterFiles)
          .where(and(eq(masterFiles.masterId, id), eq(masterFiles.userId, userId)))
          .returning({ key: masterFiles.storageKey });
        const gone = await t
          .delete(masters)
          .where(and(eq(masters.id, id), eq(masters.userId, userId)))
          .returning({ id: masters.id });
        if (gone.length === 0) throw notFound(LIBRARY_MESSAGES.notFound);
        return files.map((f) => f.key);
      });
      await deleteObjects(d.storage, keys, d.log);
    },

    expire: () => expireMasterFiles(d.db, now(), d.storage),
  };
}
export type MastersService = ReturnType<typeof createMastersService>;
