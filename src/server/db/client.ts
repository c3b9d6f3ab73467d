import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDirLock } from './dir-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Cheap round trip for the health check. */
  ping(): Promise<void>;
  /**
   * A named prepared statement whose rows come back as arrays, values as the driver parses them (numbers,
   * booleans, Dates), with no ORM mapping: only for the per-request hot path (decision 082).
   */
  queryArrays(name: string, text: string, params: unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

/** Source tree: ./migrations beside this file; built server: dist/server/migrations beside main.js. */
export function defaultMigrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'migrations'), path.join(here, 'db', 'migrations')];
  const found = candidates.find((c) => fs.existsSync(path.join(c, 'meta', '_journal.json')));
  if (!found) throw new Error(`Database migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

// Any constant: all server processes on one PostgreSQL take the same lock while migrating.
const MIGRATION_LOCK_KEY = 727_274_001;

export async function openPostgres(
  url: string,
  migrationsFolder = defaultMigrationsFolder(),
): Promise<Database> {
  // Requests queue for a connection rather than fail at once under bursts; a dead database still fails
  // within 15 s with a 503 (see http/error-handler.ts).
  const pool = new pg.Pool({ connectionString: url, max: 20, connectionTimeoutMillis: 15_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const lockClient = await pool.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(pool), { migrationsFolder });
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lockClient.release();
  }
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    queryArrays: async (name, text, params) =>
      (await pool.query<unknown[]>({ name, text, values: params, rowMode: 'array' })).rows,
    close: () => pool.end(),
  };
}

/**
 * PGlite keeps its files in `dir`. Two processes on one folder silently lose writes, so a lock file
 * refuses the second one. `dir` undefined means an in-memory database (tests); `loadDataDir` starts from a dump.
 */
export async function openPglite(
  dir: string | undefined,
  opts: { migrationsFolder?: string; loadDataDir?: Blob } = {},
): Promise<Database> {
  const release = dir ? acquireDirLock(dir) : () => {};
  try {
    const client = dir ? new PGlite(dir) : new PGlite({ loadDataDir: opts.loadDataDir });
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client), {
      migrationsFolder: opts.migrationsFolder ?? defaultMigrationsFolder(),
    });
    return {
      db,
      kind: 'pglite',
      ping: async () => {
        await client.query('select 1');
      },
      // One connection: PGlite has no named statements to keep; it parses each query anew.
      queryArrays: async (_name, text, params) =>
        (await client.query<unknown[]>(text, params, { rowMode: 'array' })).rows,
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

export function openDatabase(cfg: { databaseUrl: string | undefined; dataDir: string }): Promise<Database> {
  return cfg.databaseUrl ? openPostgres(cfg.databaseUrl) : openPglite(path.join(cfg.dataDir, 'pglite'));
}
