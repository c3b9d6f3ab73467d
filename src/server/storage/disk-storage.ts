import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertKey,
  assertPrefix,
  type ByteRange,
  ObjectNotFoundError,
  type ObjectStat,
  type Storage,
} from './storage';

/** Partial uploads are written here and renamed into place only once complete. */
const INCOMING = '.incoming';
/** A folder removal that meets a new object retries this often, waiting 20, 40, ... ms (300 ms in all). */
const RM_RETRIES = 5;
const RM_RETRY_MS = 20;
/** Times an upload makes its folder again when a removal took it before the rename (moveIntoPlace). */
const MOVE_TRIES = 5;

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Renames a complete part into its folder, made first. A folder removal (deletePrefix: the account deleted
 * as this upload finished) can take the folder between the two steps, so the rename is tried again on a
 * folder made again; the caller then finds the account gone and discards the object.
 */
const moveIntoPlace = async (partial: string, final: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      // mkdir too can meet the removal half way (ENOENT).
      await fs.promises.mkdir(path.dirname(final), { recursive: true });
      await fs.promises.rename(partial, final);
      return;
    } catch (err) {
      if (!isMissing(err) || attempt >= MOVE_TRIES) throw err;
    }
  }
};

export interface DiskStorage extends Storage {
  /** Removes partial uploads older than `maxAgeMs` (left by a crash mid-upload); returns how many. */
  sweepIncoming(maxAgeMs: number): Promise<number>;
}

/** Local disk under `root` (DATA_DIR/files). Paths come only from validated, server-made keys. */
export function diskStorage(root: string): DiskStorage {
  const base = path.resolve(root);
  const incoming = path.join(base, INCOMING);

  const pathOf = (key: string): string => {
    const p = path.join(base, assertKey(key));
    // Belt and braces: the key pattern already forbids '..', but never hand out a path outside root.
    if (!p.startsWith(base + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return p;
  };

  async function walk(dir: string, rel: string, out: string[]) {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const e of entries) {
      if (e.name === INCOMING && rel === '') continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), childRel, out);
      else if (e.isFile()) out.push(childRel);
    }
  }

  async function list(prefix: string): Promise<string[]> {
    assertPrefix(prefix);
    const out: string[] = [];
    const rel = prefix.replace(/\/$/, '');
    await walk(rel ? path.join(base, rel) : base, rel, out);
    return out.sort();
  }

  return {
    kind: 'disk',
    list,

    async put(key, body) {
      const final = pathOf(key);
      await fs.promises.mkdir(incoming, { recursive: true });
      const partial = path.join(incoming, `${randomUUID()}.part`);
      let size: number;
      try {
        await pipeline(body, fs.createWriteStream(partial, { flags: 'wx' }));
        // Measured before it is in place: once there, a folder removal may take it at any moment.
        ({ size } = await fs.promises.stat(partial));
        await moveIntoPlace(partial, final);
      } catch (err) {
        await fs.promises.rm(partial, { force: true });
        throw err;
      }
      return { size };
    },

    async get(key, range?: ByteRange) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(pathOf(key), 'r');
      } catch (err) {
        if (isMissing(err)) throw new ObjectNotFoundError(key);
        throw err;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {}) as Readable;
    },

    async stat(key): Promise<ObjectStat | null> {
      try {
        const s = await fs.promises.stat(pathOf(key));
        return s.isFile() ? { size: s.size } : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      if (assertPrefix(prefix) === '') throw new Error('Refusing to delete the whole storage');
      const keys = await list(prefix);
      // An object renamed into the folder while it is being removed (an upload finishing as its account is
      // deleted) makes the last rmdir fail with ENOTEMPTY: the removal starts again, from a short wait
      // growing by RM_RETRY_MS each time, rather than answering the deletion with an error.
      await fs.promises.rm(path.join(base, prefix), {
        recursive: true,
        force: true,
        maxRetries: RM_RETRIES,
        retryDelay: RM_RETRY_MS,
      });
      return keys.length;
    },

    async sweepIncoming(maxAgeMs) {
      let names: string[];
      try {
        names = await fs.promises.readdir(incoming);
      } catch (err) {
        if (isMissing(err)) return 0;
        throw err;
      }
      let removed = 0;
      for (const name of names) {
        const p = path.join(incoming, name);
        const s = await fs.promises.stat(p).catch(() => null);
        // Only old ones: another server process may be writing a fresh part right now.
        if (s?.isFile() && Date.now() - s.mtimeMs > maxAgeMs) {
          await fs.promises.rm(p, { force: true });
          removed++;
        }
      }
      return removed;
    },

    async check() {
      await fs.promises.mkdir(incoming, { recursive: true });
      await fs.promises.access(base, fs.constants.W_OK);
      await fs.promises.access(incoming, fs.constants.W_OK);
    },
  };
}
