import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Runs once per `vitest run`:
 * - builds a migrated PGlite template and dumps it, so each test file loads it in well under a second
 *   (creating a PGlite database takes seconds);
 * - finds PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) and creates a
 *   fresh database for this run (dropped at the end), or records why it is skipped.
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

  // One fresh database per run, so several runs on one machine never share tables.
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const dbName = `mym_test_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  let created = false;
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    created = true;
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    project.provide('postgresUrl', url.toString());
    project.provide('postgresSkipReason', '');
  } catch (err) {
    const reason = `PostgreSQL not reachable at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message})`;
    console.warn(`\n*** SKIPPING the PostgreSQL runs of the server suites: ${reason} ***\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkipReason', reason);
  }
  return async () => {
    if (created) await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
    postgresSkipReason: string;
  }
}
