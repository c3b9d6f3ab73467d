import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** The real entry point in one node process (tsx as a loader, so kill -9 hits the server itself). */
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;
const children: ChildProcess[] = [];

function startServer(env: Record<string, string>) {
  const child = spawn(NODE_TS[0], [...NODE_TS.slice(1), 'src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = async () => {
    for (let i = 0; i < 600; i++) {
      if (output.includes('is running at')) return;
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start: ${output}`);
  };
  return { child, ready, exited, output: () => output };
}

const freePort = () => 40000 + Math.floor(Math.random() * 20000);

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('server process', () => {
  it('stops at start with a message naming a bad variable', async () => {
    const s = startServer({ PORT: 'eighty', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-')) });
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/Invalid configuration:\s+PORT:/);
  });

  it('refuses to start in production on test stand-ins unless opted in, and warns when opted in', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-prod-'));
    const refused = startServer({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(freePort()) });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/STRIPE_SECRET_KEY: required when NODE_ENV=production/);
    expect(refused.output()).toMatch(/STRIPE_WEBHOOK_SECRET: required when NODE_ENV=production/);
    expect(refused.output()).toMatch(/SMTP_URL: required when NODE_ENV=production/);

    const port = freePort();
    const demo = startServer({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      PAYMENTS: 'local',
      MAIL: 'outbox',
      TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
    });
    await demo.ready();
    // The warnings go through the logger, which may flush after the plain "is running" line: wait for them.
    const warned = { timeout: 10_000 };
    await expect
      .poll(() => demo.output(), warned)
      .toContain('PAYMENTS=local: payments use the built-in test provider');
    await expect.poll(() => demo.output(), warned).toContain('MAIL=outbox: mails');
    const config = await (await fetch(`http://127.0.0.1:${port}/api/config`)).json();
    expect(config).toMatchObject({ paymentProvider: 'local', demoPayments: true });
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  }, 120_000);

  it('in production, stops at start without TOTP_ENCRYPTION_KEYS, naming it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    const s = startServer({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PAYMENTS: 'local',
      MAIL: 'outbox',
      TOTP_ENCRYPTION_KEYS: '',
    });
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(
      /Invalid configuration:\s+TOTP_ENCRYPTION_KEYS: required when NODE_ENV=production/,
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a second process on one PGlite folder, and keeps committed data through kill -9', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-proc-'));
    const port = freePort();
    const first = startServer({ DATA_DIR: dataDir, PORT: String(port) });
    await first.ready();
    const reg = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'durable@example.test', password: 'kept through a crash' }),
    });
    expect(reg.status).toBe(201);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(port + 1) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another server process');

    first.child.kill('SIGKILL');
    await first.exited;
    const third = startServer({ DATA_DIR: dataDir, PORT: String(port + 2) });
    await third.ready();
    const login = await fetch(`http://127.0.0.1:${port + 2}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'durable@example.test', password: 'kept through a crash' }),
    });
    expect(login.status).toBe(200);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    // Outside production, the TOTP key was created once in DATA_DIR, readable by its owner only.
    expect(fs.statSync(path.join(dataDir, 'totp-encryption.key')).mode & 0o777).toBe(0o600);

    // `npm run admin -- grant <email>` on the same (now free) folder.
    const grant = spawnSync(
      NODE_TS[0],
      [...NODE_TS.slice(1), 'src/server/cli/admin.ts', 'grant', 'DURABLE@example.test'],
      {
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    expect(grant.stdout).toContain('is now an admin');
    expect(grant.status).toBe(0);
    const unknown = spawnSync(
      NODE_TS[0],
      [...NODE_TS.slice(1), 'src/server/cli/admin.ts', 'grant', 'nobody@example.test'],
      {
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user with the email nobody@example.test');
  }, 120_000);
});
