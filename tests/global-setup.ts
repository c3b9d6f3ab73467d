import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Runs once per `vitest run`:
 * - builds a migrated PGlite template and dumps it, so each test file loads it in well under a second
 *   (creating a PGlite database takes seconds);
 * - finds PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) and gives it a
 *   fresh schema, or records why it is skipped.
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

  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.query(
      'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;',
    );
    project.provide('postgresUrl', url);
    project.provide('postgresSkipReason', '');
  } catch (err) {
    const reason = `PostgreSQL not reachable at ${url.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message})`;
    console.warn(`\n*** SKIPPING the PostgreSQL runs of the server suites: ${reason} ***\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkipReason', reason);
  } finally {
    await probe.end().catch(() => {});
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
    postgresSkipReason: string;
  }
}
