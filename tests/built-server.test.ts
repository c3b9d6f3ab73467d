import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/server-processes';

/**
 * The production path of the README: build once in the source tree, then serve the built output from a
 * folder that has only dist/, package.json, package-lock.json and `npm ci --omit=dev` (no TypeScript, no
 * Vite, no tsx). Needs the npm registry (or npm's cache), as any deploy does.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'built-server-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  const output = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${output}`);
  return output;
}

/** The deploy folder's environment: nothing from the test runner but PATH and HOME. */
const prodEnv = (port: number) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
  DATA_DIR: path.join(work, 'data'),
  LOG_LEVEL: 'warn',
  // Production refuses the test stand-ins unless opted in, and names its two-factor key.
  PAYMENTS: 'local',
  MAIL: 'outbox',
  TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
});

describe('the built server', () => {
  it('starts from a folder with production dependencies only: migrate, serve, health, the app, SIGTERM', async () => {
    const app = path.join(work, 'app');
    // Build exactly as `npm run build:app` does, into the deploy folder.
    sh(
      'npx',
      ['vite', 'build', '--outDir', path.join(app, 'dist/web'), '--emptyOutDir', '--logLevel', 'warn'],
      ROOT,
    );
    sh(process.execPath, ['scripts/build-server.mjs', path.join(app, 'dist/server')], ROOT);
    for (const f of ['package.json', 'package-lock.json'])
      fs.copyFileSync(path.join(ROOT, f), path.join(app, f));

    const install = sh('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], app);
    expect(install).not.toContain('EBADENGINE');
    for (const dev of ['typescript', 'vite', 'tsx', 'esbuild', 'vitest'])
      expect(fs.existsSync(path.join(app, 'node_modules', dev)), `${dev} is a devDependency`).toBe(false);

    const port = await freePort();
    const migrate = sh(process.execPath, ['dist/server/migrate.js'], app, prodEnv(port));
    expect(migrate).toContain('Migrations applied');

    // README step 4's form: the server itself under the supervisor (npm in between forwards signals less cleanly).
    const server = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: app,
      env: prodEnv(port),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(server);
    let output = '';
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    const origin = `http://127.0.0.1:${port}`;
    for (let i = 0; !output.includes('is running at'); i++) {
      if (server.exitCode !== null || i > 600) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const health = await fetch(`${origin}/api/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`${origin}/pricing`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const asset = html.match(/\/assets\/index-[\w-]+\.js/)?.[0];
    expect(asset, 'index.html names its entry chunk').toBeDefined();
    const js = await fetch(`${origin}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    // Read to the end: an unread body larger than the socket buffers keeps the response in flight, and the
    // graceful shutdown below would (rightly) wait for it until its 25 s bound and exit 1.
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await fetch(`${origin}/assets/gone-123.js`)).status).toBe(404);

    // SIGTERM: the server shuts down gracefully, exits 0 and releases its PGlite lock file.
    process.kill(server.pid!, 'SIGTERM');
    expect(await exited, `exit code after SIGTERM:\n${output}`).toBe(0);
    const lock = path.join(work, 'data', 'pglite.lock');
    // The server's own bound is 25 s (README, Shutdown); a loaded machine may need much of it.
    for (let i = 0; fs.existsSync(lock) && i < 600; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(lock), `graceful shutdown releases the lock:\n${output}`).toBe(false);
  }, 300_000);
});
