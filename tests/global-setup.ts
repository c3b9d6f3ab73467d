import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Runs once per `vitest run`:
 * - builds a migrated PGlite template and dumps it, so each test file loads it in well under a second
 *   (creating a PGlite database takes seconds);
 * - finds PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), or records why
 *   the PostgreSQL runs are skipped.
 */
export default async function setup(project: TestProject) {
  const dir = path.resolve('.data-test');
  fs.mkdirSync(dir, { recursive: true });
  const { openPglite } = await import('../src/server/db/client');
  const database = await openPglite(undefined);
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const templatePath = path.join(dir, 'pglite-template.tar');
  fs.writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', templatePath);

  // Fresh databases per run (one per Vitest worker, made on first use by the harness), so parallel files
  // and several runs on one machine never share tables. All of them are dropped at the end.
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const prefix = `mym_test_${process.pid}_${Date.now().toString(36)}`;
  // Short-lived admin connections: one held for the whole run would crash the run with an unhandled
  // 'error' event if PostgreSQL restarts meanwhile (the fault tests restart it on purpose).
  const withAdmin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
    admin.on('error', () => {});
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.end().catch(() => {});
    }
  };
  let reachable = false;
  try {
    await withAdmin((c) => c.query('select 1'));
    reachable = true;
    project.provide('postgresAdminUrl', adminUrl);
    project.provide('postgresDbPrefix', prefix);
    project.provide('postgresSkipReason', '');
  } catch (err) {
    const reason = `PostgreSQL not reachable at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message})`;
    console.warn(`\n*** SKIPPING the PostgreSQL runs of the server suites: ${reason} ***\n`);
    project.provide('postgresAdminUrl', '');
    project.provide('postgresDbPrefix', '');
    project.provide('postgresSkipReason', reason);
  }
  return async () => {
    if (!reachable) return;
    await withAdmin(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) {
        await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
      }
    }).catch(() => {});
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresAdminUrl: string;
    postgresDbPrefix: string;
    postgresSkipReason: string;
  }
}
