import { inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { masterFiles, tracks } from '../db/schema';
import { expireMasterFiles } from '../modules/library/masters-service';
import { createStorage } from '../storage/create-storage';
import type { Storage } from '../storage/storage';
import { type StorageInventory, storageInventory } from './stored-objects';

/**
 * The start-up (and hourly) sweep: what a crash can leave behind in storage is removed.
 * - Partial uploads (disk part files, S3 multipart uploads) not written to for `graceSeconds`.
 * - Paid masters' kept files past their 30 days (issue 30): their rows go, so their objects are orphans.
 * - Orphan objects: stored completely but with no track or master-file row (a crash between `put` and the row's commit,
 *   or a row deleted while its object's delete failed). Only objects older than `graceSeconds` count, so
 *   another process's upload that has stored its object and is about to write its row is left alone; the
 *   row is looked up again right before each delete.
 * Every step is idempotent, so several server processes may sweep at once.
 */
export interface SweepResult {
  orphans: number;
  partials: number;
  kept: number;
}

const BATCH = 500;

async function keysWithRows(db: Db, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += BATCH) {
    const rows = await db
      .select({ key: tracks.storageKey })
      .from(tracks)
      .where(inArray(tracks.storageKey, keys.slice(i, i + BATCH)));
    for (const r of rows) found.add(r.key);
    // Issue 30: a paid master's kept files are objects with rows too.
    const kept = await db
      .select({ key: masterFiles.storageKey })
      .from(masterFiles)
      .where(inArray(masterFiles.storageKey, keys.slice(i, i + BATCH)));
    for (const r of kept) found.add(r.key);
  }
  return found;
}

export async function sweepStorage(d: {
  db: Db;
  storage: Storage;
  inventory: StorageInventory;
  graceSeconds: number;
  now?: () => number;
}): Promise<SweepResult> {
  const cutoff = (d.now ?? Date.now)() - d.graceSeconds * 1000;
  let partials = 0;
  for (const p of await d.inventory.partials()) {
    if (p.startedAt.getTime() > cutoff) continue;
    await d.inventory.removePartial(p.id);
    partials++;
  }
  await expireMasterFiles(d.db, new Date((d.now ?? Date.now)()));
  const objects = await d.inventory.objects();
  const old = objects.filter((o) => o.lastModified.getTime() <= cutoff).map((o) => o.key);
  const withRows = await keysWithRows(d.db, old);
  let orphans = 0;
  for (const key of old) {
    if (withRows.has(key)) continue;
    // Re-checked one by one just before deleting: a row may have been written since the batch read.
    if ((await keysWithRows(d.db, [key])).size > 0) continue;
    await d.storage.delete(key);
    orphans++;
  }
  return { orphans, partials, kept: objects.length - orphans };
}

export interface Maintenance {
  /** The first sweep (started at once, in the background). */
  firstSweep: Promise<SweepResult | null>;
  stop(): void;
}

/** Runs a sweep now and then every `everyMs`; failures are logged, never thrown (the server keeps serving). */
export function startMaintenance(d: {
  config: Pick<Config, 'storage' | 'sweepGraceSeconds'>;
  db: Db;
  log: (msg: string) => void;
  everyMs?: number;
}): Maintenance {
  const storage = createStorage(d.config);
  const inventory = storageInventory(d.config, d.log);
  let running: Promise<SweepResult | null> | null = null;
  const run = () => {
    running ??= sweepStorage({ db: d.db, storage, inventory, graceSeconds: d.config.sweepGraceSeconds })
      .then(
        (r) => {
          if (r.orphans || r.partials)
            d.log(`storage sweep: removed ${r.orphans} orphan objects and ${r.partials} partial uploads`);
          return r;
        },
        (err) => {
          d.log(`storage sweep failed: ${(err as Error).message}`);
          return null;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const firstSweep = run();
  const timer = setInterval(run, d.everyMs ?? 3600_000);
  timer.unref();
  return {
    firstSweep,
    stop() {
      clearInterval(timer);
      inventory.close();
    },
  };
}
