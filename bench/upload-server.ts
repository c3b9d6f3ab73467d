/**
 * The server under test for bench/upload-memory.bench.ts, in its own process so that its memory is the only
 * memory measured. Started with fork(); gets its storage settings as JSON in argv[2]; answers on IPC with
 * the port once it listens. PGlite in memory, the real app, the real multipart path.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/client';
import { memoryRateLimiter } from '../src/server/rate-limit/limiter';
import { createPasswordHasher } from '../src/server/security/passwords';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
const database = await openPglite(undefined);
const app = await buildApp({
  config,
  database,
  mailer: { send: async () => {}, close: () => {} },
  limiter: memoryRateLimiter(),
  hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
  logger: false,
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
process.on('message', async (m: { kind: string }) => {
  if (m.kind !== 'stop') return;
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
