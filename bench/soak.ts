/**
 * Soak (issue 9, opt-in: `npm run bench -- soak`): one server process under moderate, steady, mixed load on
 * loopback for SOAK_SECONDS (default 600), on PostgreSQL when reachable (else PGlite). Bounded in time and
 * in requests (rate × seconds). Reports every error and the server's RSS every 10 s, then the RSS trend of
 * the second half (least-squares slope, MB per minute) — no growth trend, no error is the pass.
 *
 *   node --import tsx bench/soak.ts
 *   SOAK_SECONDS=60 SOAK_RATE=100 node --import tsx bench/soak.ts     (a short run)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { multipart, wavBytes } from '../src/server/modules/tracks/test-uploads';
import { subscribeOverHttp } from '../tests/helpers/http-flows';
import {
  registerUser,
  scratchPostgres,
  startServerProcess,
  tempDir,
} from '../tests/helpers/server-processes';
import { fmt, loadAverage } from './load-common';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 80); // requests per second
const MAX_REQUESTS = SECONDS * RATE;
const MB = 1024 * 1024;
/** Growth above this (MB per minute over the second half) counts as a trend. */
const SLOPE_LIMIT = 1;

const rssOf = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

function slopePerMinute(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const num = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return den ? (num / den) * 60 : 0;
}

async function main() {
  const pgDb = await scratchPostgres('soak').catch(() => undefined);
  const dataDir = tempDir('soak');
  const server = await startServerProcess('soak', {
    NODE_ENV: 'production',
    // The soak runs against the local test provider and sends no mail: opted in explicitly.
    PAYMENTS: 'local',
    MAIL: 'outbox',
    // Production insists on a named key for TOTP secrets; any fresh one serves a benchmark.
    TOTP_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: '100000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  });
  const pid = server.child.pid!;
  console.log(
    `soak: ${SECONDS} s at ${RATE} req/s (at most ${MAX_REQUESTS} requests) on ${pgDb ? 'PostgreSQL' : 'PGlite'}; load average ${loadAverage()}`,
  );
  const errors = new Map<string, number>();
  const counts = new Map<string, number>();
  try {
    // Eight users: one upload every 2 s each, so a slow moment does not look like 3 parallel uploads.
    const users = await Promise.all(
      Array.from({ length: 8 }, (_, i) => registerUser(server.origin, `soak${i}@example.test`)),
    );
    for (const u of users) await subscribeOverHttp(server.origin, u.token, 'unlimited');
    const form = multipart([
      { name: 'type', value: 'vocals' },
      { name: 'name', value: 'soak take' },
      { name: 'audio', filename: 's.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 1 }) },
    ]);
    let seq = 0;
    /** One request of the mix: mostly reads, some spends (they run out and become 402s), uploads + deletes. */
    const one = async () => {
      const n = seq++;
      // Spread every kind over the users (uploads are every 20th request: n % 4 alone would send them all
      // to one user and hit the parallel-upload limit, which is not what a soak measures).
      const u = users[(n + Math.floor(n / 20)) % users.length]!;
      const auth = { 'x-auth-token': u.token };
      const pick = n % 20;
      let kind: string;
      let res: Response;
      if (pick < 10) {
        kind = 'GET /api/auth/user';
        res = await fetch(`${server.origin}/api/auth/user`, { headers: auth });
      } else if (pick < 14) {
        kind = 'GET /api/tracks';
        res = await fetch(`${server.origin}/api/tracks`, { headers: auth });
      } else if (pick < 17) {
        kind = 'POST /api/spend-credit';
        res = await fetch(`${server.origin}/api/spend-credit`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'mix', idempotencyKey: `soak-key-${n}` }),
        });
      } else if (pick < 19) {
        kind = 'GET /api/health';
        res = await fetch(`${server.origin}/api/health`);
      } else {
        kind = 'POST+DELETE /api/tracks';
        res = await fetch(`${server.origin}/api/tracks`, {
          method: 'POST',
          headers: { ...auth, ...form.headers },
          body: new Uint8Array(form.payload),
        });
        if (res.status === 201) {
          const { id } = (await res.json()) as { id: number };
          res = await fetch(`${server.origin}/api/tracks/${id}`, { method: 'DELETE', headers: auth });
        }
      }
      await res.arrayBuffer().catch(() => {});
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      // 402 is the expected answer once a user's crowns are spent.
      const expected = res.ok || (kind === 'POST /api/spend-credit' && res.status === 402);
      if (!expected) errors.set(`${kind} → ${res.status}`, (errors.get(`${kind} → ${res.status}`) ?? 0) + 1);
    };

    const samples: Array<[number, number]> = [];
    const started = Date.now();
    let sent = 0;
    const inFlight = new Set<Promise<void>>();
    const sampler = setInterval(() => {
      const t = (Date.now() - started) / 1000;
      const rss = rssOf(pid);
      samples.push([t, rss / MB]);
      const done = [...counts.values()].reduce((a, b) => a + b, 0);
      const errs = [...errors.values()].reduce((a, b) => a + b, 0);
      console.log(
        `  t=${fmt(t).padStart(4)} s  RSS ${fmt(rss / MB, 1).padStart(7)} MB  requests ${done}  errors ${errs}`,
      );
    }, 10_000);
    // A fixed schedule: request k starts at k / RATE seconds (never more than the bound).
    while (sent < MAX_REQUESTS && Date.now() - started < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < Math.min(due, MAX_REQUESTS)) {
        const p = one()
          .catch((err: Error) => {
            errors.set(`network: ${err.message}`, (errors.get(`network: ${err.message}`) ?? 0) + 1);
          })
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
        sent++;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inFlight);
    clearInterval(sampler);

    const second = samples.filter(([t]) => t >= SECONDS / 2);
    const slope = slopePerMinute(second);
    console.log('\nrequests by kind:');
    for (const [k, v] of counts) console.log(`  ${k.padEnd(28)} ${v}`);
    console.log(`errors: ${errors.size ? '' : 'none'}`);
    for (const [k, v] of errors) console.log(`  ${k}: ${v}`);
    console.log(
      `RSS: first ${fmt(samples[0]?.[1] ?? 0, 1)} MB, last ${fmt(samples.at(-1)?.[1] ?? 0, 1)} MB, max ${fmt(Math.max(...samples.map((s) => s[1])), 1)} MB; trend over the second half ${fmt(slope, 2)} MB/min (limit ${SLOPE_LIMIT})`,
    );
    const pass = errors.size === 0 && slope < SLOPE_LIMIT;
    console.log(pass ? '✓ no error, no memory growth trend' : '✗ soak failed');
    if (!pass) process.exitCode = 1;
  } finally {
    await server.stop();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
