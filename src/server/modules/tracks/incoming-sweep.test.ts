import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { buildApp } from '../../app';
import { memoryRateLimiter } from '../../rate-limit/limiter';
import { createPasswordHasher } from '../../security/passwords';
import { memoryMailer, openTestDatabase, testConfig } from '../../test/harness';
import { INCOMING_IDLE_MS } from './tracks-module';

it('removes at start-up the partial uploads a crash left behind, and keeps one another process is writing', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'incoming-sweep-'));
  const incoming = path.join(dataDir, 'files', '.incoming');
  fs.mkdirSync(incoming, { recursive: true });
  // Left by a crash ten minutes ago (the old rule kept these for 24 h) ...
  const crashed = path.join(incoming, 'crashed.part');
  fs.writeFileSync(crashed, 'half a song');
  const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
  fs.utimesSync(crashed, tenMinutesAgo, tenMinutesAgo);
  // ... and one still being written by another live process.
  const live = path.join(incoming, 'live.part');
  fs.writeFileSync(live, 'arriving');
  expect(10 * 60_000).toBeGreaterThan(INCOMING_IDLE_MS);

  const database = await openTestDatabase('pglite');
  const app = await buildApp({
    config: testConfig({ DATA_DIR: dataDir }),
    database,
    mailer: memoryMailer(),
    limiter: memoryRateLimiter(),
    hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
    logger: false,
  });
  try {
    expect(fs.readdirSync(incoming)).toEqual(['live.part']);
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
