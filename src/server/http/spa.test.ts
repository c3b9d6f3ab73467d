import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { memoryRateLimiter } from '../rate-limit/limiter';
import { createPasswordHasher } from '../security/passwords';
import { memoryMailer, openTestDatabase, testConfig } from '../test/harness';

/** A built web app as vite writes it: index.html, hashed assets and their source maps. */
const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-web-'));
fs.mkdirSync(path.join(webRoot, 'assets'));
fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
fs.writeFileSync(
  path.join(webRoot, 'assets', 'index-abc123.js'),
  'console.log(1)\n//# sourceMappingURL=index-abc123.js.map',
);
fs.writeFileSync(
  path.join(webRoot, 'assets', 'index-abc123.js.map'),
  '{"version":3,"sourcesContent":["secret source"]}',
);
fs.writeFileSync(path.join(webRoot, 'root.js.map'), '{"version":3,"sourcesContent":["secret source"]}');
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));

async function appWith(env: Record<string, string>) {
  const database = await openTestDatabase('pglite');
  const app = await buildApp({
    config: testConfig(env),
    database,
    mailer: memoryMailer(),
    limiter: memoryRateLimiter(),
    hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
    webRoot,
    logger: false,
  });
  return {
    get: (url: string) => app.inject({ url }),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

describe('static app', () => {
  it('serves no source map in production, and still serves the bundle and the pages', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-data-'));
    const app = await appWith({
      NODE_ENV: 'production',
      PAYMENTS: 'local',
      MAIL: 'outbox',
      TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
      DATA_DIR: dataDir,
    });
    try {
      const bundle = await app.get('/assets/index-abc123.js');
      expect(bundle.statusCode).toBe(200);
      for (const url of ['/assets/index-abc123.js.map', '/root.js.map', '/assets/index-abc123.js.map?x=1']) {
        const res = await app.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('secret source');
      }
      expect((await app.get('/mixer')).body).toContain('<title>app</title>');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves source maps outside production, for debugging the built app locally', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-data-'));
    const app = await appWith({ DATA_DIR: dataDir });
    try {
      const res = await app.get('/assets/index-abc123.js.map');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('secret source');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
