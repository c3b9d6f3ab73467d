import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Debian's HAProxy and a throw-away TLS certificate, for the production topology test. */

export const HAPROXY_CONFIG = path.resolve(import.meta.dirname, '../../docs/deploy/haproxy.cfg');

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with openssl; `pem` is the chain followed by
 * the key, as HAProxy's `crt` wants it, and `cert` is what the clients trust.
 */
export function makeCertificate(dir: string): { pem: string; cert: string } {
  const key = path.join(dir, 'tls.key');
  const crt = path.join(dir, 'tls.crt');
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  const pem = path.join(dir, 'tls.pem');
  fs.writeFileSync(pem, fs.readFileSync(crt, 'utf8') + fs.readFileSync(key, 'utf8'), { mode: 0o600 });
  return { pem, cert: fs.readFileSync(crt, 'utf8') };
}

export interface Haproxy {
  child: ChildProcess;
  /** Everything HAProxy logged (its request log and server state changes). */
  output(): string;
  /** Where the log ends now: pass it to waitForLog to look only at what comes after. */
  mark(): number;
  /** Resolves once the log (from `from` on) holds `text`, e.g. "app/app1 is DOWN"; rejects after 20 s. */
  waitForLog(text: string, from?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `haproxy -db -f docs/deploy/haproxy.cfg` in the foreground with the MYM_* variables set. */
export async function startHaproxy(env: {
  MYM_PROXY_BIND: string;
  MYM_TLS_PEM: string;
  MYM_APP_1: string;
  MYM_APP_2: string;
}): Promise<Haproxy> {
  const check = spawnSync('haproxy', ['-c', '-f', HAPROXY_CONFIG], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`haproxy -c refused the config:\n${check.stdout}${check.stderr}`);
  const child = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [host, port] = [env.MYM_PROXY_BIND.replace(/:\d+$/, ''), Number(env.MYM_PROXY_BIND.split(':').pop())];
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, host, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) break;
    if (i > 200) throw new Error(`haproxy did not listen on ${env.MYM_PROXY_BIND}:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    output: () => output,
    mark: () => output.length,
    async waitForLog(text, from = 0) {
      const deadline = Date.now() + 20_000;
      while (!output.includes(text, from)) {
        if (Date.now() > deadline) throw new Error(`haproxy never logged "${text}":\n${output.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The first free loopback ports in [from, to] (the test's range on shared machines). */
export async function freePortsIn(from: number, to: number, count: number): Promise<number[]> {
  const found: number[] = [];
  for (let p = from; p <= to && found.length < count; p++) {
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(p, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) found.push(p);
  }
  if (found.length < count) throw new Error(`only ${found.length} free ports in ${from}-${to}`);
  return found;
}
