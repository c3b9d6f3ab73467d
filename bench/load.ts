/**
 * Load benchmark (issue 9): GET /api/auth/user with a session and POST /api/spend-credit, under wrk on
 * loopback, against the real server process (`src/server/main.ts`, NODE_ENV=production) on PGlite and on
 * PostgreSQL, each beside a bare Fastify hello-world measured in the same run. Target: the user endpoint on
 * PostgreSQL at ≥ 0.5× the hello-world's requests per second.
 *
 *   node --import tsx bench/load.ts            (npm run bench -- load)
 *   node --import tsx bench/load.ts postgres   (one database only)
 *   LOAD_LEVELS=16,64,128 ...                  (wrk connections the GET rounds sweep; spend uses the first)
 *   LOAD_SECONDS=20 ...                        (a longer spend run)
 *   LOAD_ROUNDS=9 LOAD_ROUND_SECONDS=5 ...     (alternating rounds per server and level; rows are medians)
 *   LOAD_CPU_PROF=/tmp/prof ...                (the server writes a V8 CPU profile there when it stops)
 *
 * Throughput is compared at each server's peak (decision 083): an endpoint that waits on PostgreSQL needs
 * more requests in flight than a hello-world to keep its process busy (Little's law), so the GET rounds
 * sweep LOAD_LEVELS connections and the target ratio is the app's best level over the hello-world's best
 * level, paired round by round. Every level is printed too, with its p99 latency.
 *
 * Every spend uses a fresh idempotency key, so each one is a real conditional UPDATE plus a ledger insert.
 * Requests rotate over SESSIONS signed-in sessions of USERS users (rows inserted by the benchmark), so session
 * lookups and spends are as varied as many users' would be. Every user holds enough crowns (granted with a
 * matching ledger row) never to run out during the run.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openPglite } from '../src/server/db/client';
import { hashToken, newToken } from '../src/server/security/tokens';
import { subscribeOverHttp } from '../tests/helpers/http-flows';
import {
  registerUser,
  type ServerProcess,
  scratchPostgres,
  startServerProcess,
  tempDir,
} from '../tests/helpers/server-processes';
import {
  cpuSeconds,
  fmt,
  haveWrk,
  loadAverage,
  runWrk,
  startHelloWorld,
  type WrkResult,
  wrkLua,
} from './load-common';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 8);
/** wrk connection counts the GET rounds sweep; the first is also the spend run's. */
const LEVELS = (process.env.LOAD_LEVELS ?? '16,64,128').split(',').map(Number);
/** Alternating rounds of ROUND_SECONDS per server and level; each table row is the median round. */
const ROUNDS = Number(process.env.LOAD_ROUNDS ?? 7);
const ROUND_SECONDS = Number(process.env.LOAD_ROUND_SECONDS ?? 2);
const only = process.argv.slice(2);
const GRANT = 10_000_000;
/** Signed-in sessions the requests rotate over, spread over USERS users, as if they were all active at once. */
const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 64);
const USERS = Number(process.env.LOAD_USERS ?? 16);

/**
 * Copies the registered (subscribed) user into USERS - 1 more, grants every one GRANT crowns with its ledger
 * row, and signs `tokens` in, in turn over the users.
 */
const setupSql = (userId: number, tokens: string[]) => [
  `INSERT INTO users (email, username, password_hash, subscription_type, subscription_status, current_period_end,
     mix_credits, mastering_credits)
   SELECT 'copy-' || g || '-' || email, username || g, password_hash, subscription_type, subscription_status,
     current_period_end, mix_credits, mastering_credits
   FROM users, generate_series(1, ${USERS - 1}) g WHERE id = ${userId}`,
  `UPDATE users SET crowns = crowns + ${GRANT}`,
  `INSERT INTO credit_ledger (user_id, currency, delta, reason, reference)
   SELECT id, 'crown', ${GRANT}, 'bench_grant', 'bench:grant:' || id FROM users`,
  `INSERT INTO sessions (id_hash, user_id, expires_at)
   SELECT t.h, u.id, now() + interval '1 day'
   FROM unnest(ARRAY[${tokens.map((t) => `'${hashToken(t)}'`).join(', ')}]) WITH ORDINALITY t(h, i)
   JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users) u ON u.n = ((t.i - 1) % ${USERS}) + 1`,
];

/** A server with USERS Unlimited users holding GRANT crowns each; returns its origin and SESSIONS tokens. */
async function prepare(kind: 'pglite' | 'postgres') {
  const dataDir = tempDir(`load-${kind}`);
  const pgDb = kind === 'postgres' ? await scratchPostgres('load') : undefined;
  const env = {
    NODE_ENV: 'production',
    // The load bench subscribes through the local test provider and sends no mail: opted in explicitly.
    PAYMENTS: 'local',
    MAIL: 'outbox',
    // Production insists on a named key for TOTP secrets; any fresh one serves a benchmark.
    TOTP_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  };
  const profile = process.env.LOAD_CPU_PROF;
  const execArgv = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : undefined;
  let server: ServerProcess = await startServerProcess(`load-${kind}`, env, { execArgv });
  const { token, id } = await registerUser(server.origin, `load-${kind}@example.test`);
  await subscribeOverHttp(server.origin, token, 'unlimited');
  const tokens = Array.from({ length: SESSIONS }, newToken);
  if (pgDb) {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: pgDb.url });
    await c.connect();
    for (const q of setupSql(id, tokens)) await c.query(q);
    await c.end();
  } else {
    // PGlite belongs to one process: stop the server, grant, start it again on the same folder.
    await server.stop();
    const db = await openPglite(path.join(dataDir, 'pglite'));
    const { sql } = await import('drizzle-orm');
    for (const q of setupSql(id, tokens)) await db.db.execute(sql.raw(q));
    await db.close();
    server = await startServerProcess(`load-${kind}`, env, { port: server.port, execArgv });
  }
  return {
    origin: server.origin,
    tokens,
    pgUrl: pgDb?.url,
    pid: server.child.pid,
    async close() {
      await server.stop();
      await pgDb?.drop();
    },
  };
}

type Measured = WrkResult & { cpuUs: number };
type Row = WrkResult & { level?: number; ratio?: number; cpuUs?: number };

/** The round with the median `by` (its other figures come with it); an odd ROUNDS picks a real round. */
function medianOf<T>(rounds: T[], by: (t: T) => number): T {
  return [...rounds].sort((a, b) => by(a) - by(b))[Math.floor(rounds.length / 2)];
}

function table(rows: Row[]) {
  console.log(
    `${'endpoint'.padEnd(42)} ${'conns'.padStart(5)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'× hello'.padStart(8)} ${'CPU µs/req'.padStart(11)} ${'non-2xx'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const r of rows)
    console.log(
      `${r.label.padEnd(42)} ${String(r.level ?? '').padStart(5)} ${fmt(r.rps).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${(r.ratio === undefined ? '' : fmt(r.ratio, 2)).padStart(8)} ${(r.cpuUs === undefined ? '' : fmt(r.cpuUs, 1)).padStart(11)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}`,
    );
}

interface Subject {
  label: string;
  url: string;
  pid: number | undefined;
}

/**
 * Short rounds alternate between the servers, every level in every round. On a shared machine a neighbour's
 * burst then lands on a round or two, and each ratio is the median of the rounds' ratios to the hello-world
 * measured beside them. `measured[s][l][r]`: subject s at LEVELS[l] in round r.
 */
function sweep(subjects: Subject[], lua: string): Measured[][][] {
  for (const s of subjects) runWrk('warm-up', s.url, { seconds: 2, connections: LEVELS[0], lua });
  const measured = subjects.map(() => LEVELS.map(() => [] as Measured[]));
  for (let r = 0; r < ROUNDS; r++)
    LEVELS.forEach((connections, l) => {
      subjects.forEach((s, i) => {
        const before = cpuSeconds(s.pid);
        const w = runWrk(s.label, s.url, { seconds: ROUND_SECONDS, connections, lua });
        measured[i][l].push({ ...w, cpuUs: ((cpuSeconds(s.pid) - before) * 1e6) / w.requests });
      });
    });
  return measured;
}

/** Median round of one subject at one level, its ratio the median of its rounds' ratios to the reference's. */
function levelRow(rounds: Measured[], reference: Measured[] | undefined, level: number): Row {
  return {
    ...medianOf(rounds, (w) => w.rps),
    level,
    cpuUs: medianOf(rounds, (w) => w.cpuUs).cpuUs,
    ratio: reference
      ? medianOf(
          rounds.map((w, r) => w.rps / reference[r].rps),
          (x) => x,
        )
      : undefined,
  };
}

/** Each round's best level of `subject` over the reference's best level in that same round; the median. */
function peakRatio(subject: Measured[][], reference: Measured[][]): number {
  const best = (levels: Measured[][], r: number) => Math.max(...levels.map((rounds) => rounds[r].rps));
  return medianOf(
    Array.from({ length: ROUNDS }, (_, r) => best(subject, r) / best(reference, r)),
    (x) => x,
  );
}

/** The level whose median round is fastest, and that median. */
function peakOf(levels: Measured[][]): { level: number; rps: number } {
  const medians = levels.map((rounds, l) => ({ level: LEVELS[l], rps: medianOf(rounds, (w) => w.rps).rps }));
  return medians.reduce((a, b) => (b.rps > a.rps ? b : a));
}

async function main() {
  if (!haveWrk()) {
    console.log('wrk is not installed: apt-get install -y wrk (Debian) — skipping the load benchmark');
    return;
  }
  console.log(
    `wrk -t1 on loopback at ${LEVELS.join(', ')} connections: GET rows are medians of ${ROUNDS} alternating ${ROUND_SECONDS}-s rounds (× hello: median of each round's ratio at the same connections; CPU: the server process's CPU time per request), spend ${SECONDS} s at ${LEVELS[0]}; ${SESSIONS} sessions of ${USERS} users; server: one process of src/server/main.ts (NODE_ENV=production); load average before: ${loadAverage()}`,
  );
  const runId = Date.now().toString(36);
  let failed = false;
  for (const kind of ['pglite', 'postgres'] as const) {
    if (only.length && !only.includes(kind)) continue;
    let prepared: Awaited<ReturnType<typeof prepare>>;
    try {
      prepared = await prepare(kind);
    } catch (err) {
      console.log(`\n${kind}: skipped (${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    try {
      // Every server gets the very same requests (the rotating x-auth-token header, generated by the same
      // Lua script in wrk), so wrk's own cost per request is the same on both sides of the ratio.
      const rotate = { header: 'x-auth-token', values: prepared.tokens };
      const getLua = wrkLua({ method: 'GET', headers: {}, rotate });
      const hello = await startHelloWorld();
      const withQuery = prepared.pgUrl ? await startHelloWorld(prepared.pgUrl) : undefined;
      const subjects: Subject[] = [
        { label: 'Fastify hello-world (reference)', url: hello.url, pid: hello.child.pid },
        ...(withQuery
          ? [{ label: '  hello-world + SELECT 1 per request', url: withQuery.url, pid: withQuery.child.pid }]
          : []),
        { label: `GET /api/auth/user [${kind}]`, url: `${prepared.origin}/api/auth/user`, pid: prepared.pid },
      ];
      const measured = sweep(subjects, getLua);
      await hello.stop();
      await withQuery?.stop();
      const [reference] = measured;
      const user = measured[measured.length - 1];
      const rows: Row[] = LEVELS.flatMap((level, l) =>
        subjects.map((_, i) => levelRow(measured[i][l], i === 0 ? undefined : reference[l], level)),
      );
      // The first level's rows: the hello-world first, the user endpoint last.
      const helloAtFirst = rows[0];
      const userAtFirst = rows[subjects.length - 1];
      const spendLua = wrkLua({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        rotate,
        bodyExpr: `'{"type":"mastering","idempotencyKey":"load-${kind}-${runId}-' .. counter .. '"}'`,
      });
      const spend = runWrk(`POST /api/spend-credit [${kind}]`, `${prepared.origin}/api/spend-credit`, {
        seconds: SECONDS,
        connections: LEVELS[0],
        lua: spendLua,
      });
      rows.push({ ...spend, level: LEVELS[0], ratio: spend.rps / helloAtFirst.rps });
      console.log(`\n${kind}:`);
      table(rows);
      console.log(
        '  peak (each server at its best connections; × hello: median of each round’s best over best):',
      );
      for (const [i, s] of subjects.entries()) {
        const peak = peakOf(measured[i]);
        const ratio = i === 0 ? '' : `${fmt(peakRatio(measured[i], reference), 2)}×`;
        console.log(
          `    ${s.label.trim().padEnd(40)} ${fmt(peak.rps).padStart(7)} req/s at ${peak.level}  ${ratio}`,
        );
      }
      console.log('  req/s by round:');
      LEVELS.forEach((level, l) => {
        for (const [i, s] of subjects.entries())
          console.log(
            `    ${s.label.trim().padEnd(40)} ${String(level).padStart(4)} ${measured[i][l].map((w) => fmt(w.rps)).join(' ')}`,
          );
      });
      const failures = [...measured.flat(2), spend].filter((w) => w.non2xx || w.errors);
      if (failures.length) {
        failed = true;
        console.log('  ✗ some requests failed');
      }
      if (kind === 'postgres') {
        const peak = peakRatio(user, reference);
        console.log(
          `  target: GET /api/auth/user ≥ 0.5× hello-world on PostgreSQL, at peak → ${fmt(peak, 2)}× ${peak >= 0.5 ? '✓' : '✗ (below target)'}; both at ${LEVELS[0]} connections: ${fmt(userAtFirst.ratio ?? Number.NaN, 2)}×`,
        );
      }
    } finally {
      await prepared.close();
    }
  }
  console.log(`load average after: ${loadAverage()}`);
  if (failed) process.exitCode = 1;
}

await main();
