import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Real server processes for the scale-out, fault and load suites: `node --import tsx src/server/main.ts`
 * (tsx as a loader, so the pid is the server itself and kill -9 hits it), each on its own free port, with a
 * clean environment (nothing leaks from the test runner's env), ready once GET /api/health answers 200.
 */
export interface ServerProcess {
  name: string;
  origin: string;
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** kill -9: no shutdown code runs. */
  crash(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const live = new Set<ServerProcess>();

/** A free TCP port on the loopback interface. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

export async function startServerProcess(
  name: string,
  env: Record<string, string>,
  /** `built`: the bundled server (`dist/server/main.js` or a test's own build) instead of the sources. */
  opts: { port?: number; timeoutMs?: number; execArgv?: string[]; built?: string } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const entry = opts.built ? [opts.built] : ['--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(process.execPath, [...(opts.execArgv ?? []), ...entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: ServerProcess = {
    name,
    origin,
    port,
    child,
    output: () => output,
    exited,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      live.delete(proc);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      live.delete(proc);
      return code;
    },
  };
  live.add(proc);
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server ${name} exited (${child.exitCode ?? child.signalCode}): ${output}`);
    const up = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return proc;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server ${name} did not become healthy within the time limit: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** kill -9 every server this helper started and that still runs (afterAll / afterEach). */
export async function killAllServers(): Promise<void> {
  await Promise.all([...live].map((p) => p.crash()));
}

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** '' when Redis answers PING, else why the Redis-backed tests are skipped. */
export async function redisSkipReason(url = REDIS_URL): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return '';
  } catch (err) {
    return `Redis not reachable at ${url} (${(err as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

/** A Redis key prefix of its own for one test run, and the cleanup of its keys. */
export function redisRunPrefix(label: string) {
  const prefix = `test:${label}:${process.pid}:${Date.now().toString(36)}:`;
  return {
    prefix,
    async cleanup(url = REDIS_URL) {
      const redis = new Redis(url, { maxRetriesPerRequest: 1 });
      redis.on('error', () => {});
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A PostgreSQL database of its own (for benchmarks, which run outside Vitest's harness); drop() removes it.
 * Throws with a clear message when PostgreSQL is not reachable.
 */
export async function scratchPostgres(label: string, adminUrl = POSTGRES_ADMIN_URL) {
  const name = `mym_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

export const tempDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));

// biome-ignore lint/suspicious/noExplicitAny: JSON answers in tests are read field by field, then asserted.
export type JsonBody = any;

/** JSON over real HTTP with an optional session token. */
export async function api(
  origin: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: unknown = text;
  if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Registers a user over HTTP and returns its session token. */
export async function registerUser(origin: string, email: string, password = 'correct horse battery') {
  const res = await api(origin, 'POST', '/api/auth/register', { email, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.authToken as string, id: res.body.id as number };
}
