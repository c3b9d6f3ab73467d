import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** wrk on loopback, and the bare Fastify reference server, shared by the load and soak benchmarks. */

export interface WrkResult {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export function haveWrk(): boolean {
  return spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0;
}

const ms = (s: string): number => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s.trim());
  if (!m) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 'ms' ? v : m[2] === 's' ? v * 1000 : v * 60_000;
};

/**
 * Runs wrk (1 thread: the other core serves) against `url` for `seconds`, optionally with a Lua script
 * (headers, bodies). The answer is parsed from wrk's own --latency report.
 */
export function runWrk(
  label: string,
  url: string,
  o: { seconds: number; connections: number; lua?: string },
): WrkResult {
  const args = ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '--timeout', '10s'];
  let script: string | undefined;
  if (o.lua) {
    script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wrk-')), 'script.lua');
    fs.writeFileSync(script, o.lua);
    args.push('-s', script);
  }
  const res = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  if (script) fs.rmSync(path.dirname(script), { recursive: true, force: true });
  if (res.status !== 0) throw new Error(`wrk failed: ${res.stderr || res.stdout}`);
  const out = res.stdout;
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    label,
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    requests: num(/(\d+) requests in/),
    errors: errs ? errs.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
  };
}

/**
 * Lua for wrk: sets headers and, when given, a JSON body made per request by `bodyExpr` (Lua) and a header
 * whose value rotates over `rotate.values` (one session per request in turn, like many signed-in users).
 */
export function wrkLua(o: {
  method: string;
  headers: Record<string, string>;
  bodyExpr?: string;
  rotate?: { header: string; values: string[] };
}): string {
  const headers = Object.entries(o.headers)
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join('\n');
  if (!o.bodyExpr && !o.rotate) return `wrk.method = ${JSON.stringify(o.method)}\n${headers}\n`;
  const values = o.rotate ? `values = { ${o.rotate.values.map((v) => JSON.stringify(v)).join(', ')} }` : '';
  const rotate = o.rotate
    ? `  wrk.headers[${JSON.stringify(o.rotate.header)}] = values[(counter % #values) + 1]\n`
    : '';
  return [
    `wrk.method = ${JSON.stringify(o.method)}`,
    headers,
    values,
    'counter = 0',
    'request = function()',
    '  counter = counter + 1',
    rotate,
    `  return wrk.format(nil, nil, nil, ${o.bodyExpr ?? 'nil'})`,
    'end',
    '',
  ].join('\n');
}

/**
 * The bare Fastify hello-world in its own process (with `pgUrl`: plus one PostgreSQL query per request);
 * resolves with its URL and a stop function.
 */
export async function startHelloWorld(pgUrl?: string): Promise<{
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'load-hello-server.ts')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...(pgUrl ? { HELLO_PG_URL: pgUrl } : {}) },
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`hello-world exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** User + system CPU seconds a process has used so far (Linux /proc; NaN elsewhere or once it has exited). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the ")" that closes the command name: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
/** Linux's USER_HZ, which /proc reports times in: 100 on every mainstream architecture. */
const CLOCK_TICKS = 100;

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}
