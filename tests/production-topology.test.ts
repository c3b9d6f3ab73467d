import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPostgres } from '../src/server/db/client';
import { expectLedgerMatchesBalances } from '../src/server/modules/billing/billing-test-helpers';
import { multipart, streamedWavUpload, wavBytes } from '../src/server/modules/tracks/test-uploads';
import { MAX_TRACK_BYTES } from '../src/shared/api/tracks';
import { MESSAGES } from '../src/shared/messages';
import { freePortsIn, type Haproxy, makeCertificate, startHaproxy } from './helpers/haproxy';
import { successfulCardForm } from './helpers/http-flows';
import { type HttpsClient, httpsClient } from './helpers/https-client';
import { moneyTraffic, type Operation, tallyOf, UNAVAILABLE } from './helpers/money-traffic';
import {
  api,
  killAllServers,
  REDIS_URL,
  redisRunPrefix,
  redisSkipReason,
  type ServerProcess,
  scratchPostgres,
  startServerProcess,
} from './helpers/server-processes';

/**
 * The README's production topology, whole, on this machine: Debian's HAProxy terminating TLS (a certificate
 * made here) with docs/deploy/haproxy.cfg as it is, in front of two instances of the BUILT server
 * (`node dist/server/main.js` with NODE_ENV=production), one fresh PostgreSQL database, Redis under a key
 * prefix of its own and an S3 peer (s3rver). Every request of the journeys below goes through the proxy.
 * Then one instance is killed mid-traffic, and the database is backed up and restored with
 * docs/deploy/db-backup.sh and db-restore.sh.
 *
 * It runs as its own step of `npm test` (TOPOLOGY=1, scripts/test-all.mjs): alone on the machine, so the
 * failover timings are not fought over by the parallel suite. Each step prints what it saw.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'correct horse battery';
const AUTH_RATE_LIMIT = 5;

const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const missingTools = ['haproxy', 'openssl', 'pg_dump', 'pg_restore', 'psql'].filter((t) => !have(t));
const skip =
  process.env.TOPOLOGY !== '1'
    ? 'runs as its own step of npm test (TOPOLOGY=1)'
    : inject('postgresSkipReason') ||
      (missingTools.length
        ? `${missingTools.join(', ')} not installed (apt-get install haproxy openssl postgresql-client)`
        : '') ||
      (await redisSkipReason());

// A skipped file shows only its counts in Vitest's summary: say why, where the CI step's output shows it.
if (skip && process.env.TOPOLOGY === '1')
  console.warn(`\n*** SKIPPED the production topology: ${skip} ***\n`);

const report = (step: string, result: string) => console.log(`[topology] ${step}: ${result}`);

describe.skipIf(Boolean(skip))(
  `production topology: HAProxy (TLS) → two built instances → PostgreSQL, Redis, S3${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    // Inside the repository (ignored by git), so the built server finds node_modules as dist/ would.
    let work: string;
    let built: string;
    const redisRun = redisRunPrefix('topology');
    const databases: Array<Awaited<ReturnType<typeof scratchPostgres>>> = [];
    let database: Database;
    /** Raw SQL on the topology's database, for the checks (drizzle's `database.db` for the ledger helper). */
    let pool: pg.Pool;
    let s3: Awaited<ReturnType<typeof import('../src/server/storage/s3rver-peer').startS3Peer>>;
    let proxy: Haproxy;
    let cert: string;
    let origin: string;
    let ports: number[];
    const instances: Record<'app1' | 'app2', ServerProcess | undefined> = {
      app1: undefined,
      app2: undefined,
    };
    const clients: HttpsClient[] = [];
    /** A client of the proxy connecting from its own loopback address (127.0.0.x). */
    const clientFrom = (n: number) => {
      const c = httpsClient(origin, { ca: cert, from: `127.0.0.${n}` });
      clients.push(c);
      return c;
    };
    /**
     * What each instance has served, by route (and status, when given): its own /metrics, scraped directly
     * (never via the proxy).
     */
    const servedBy = async (p: ServerProcess, route: string, status?: number) => {
      const res = await api(p.origin, 'GET', '/metrics', undefined, {
        authorization: `Bearer ${METRICS_TOKEN}`,
      });
      let n = 0;
      for (const m of String(res.body).matchAll(/^http_request_duration_seconds_count\{([^}]*)\} (\d+)/gm))
        if (
          m[1]!.includes(`route="${route}"`) &&
          (status === undefined || m[1]!.includes(`status="${status}"`))
        )
          n += Number(m[2]);
      return n;
    };
    const METRICS_TOKEN = 'topology-metrics-token-0123456789';
    let appEnv: Record<string, string>;
    const startInstance = (name: 'app1' | 'app2', port: number) =>
      startServerProcess(
        name,
        { ...appEnv, DATA_DIR: path.join(work, `data-${name}`) },
        { port, built, timeoutMs: 90_000 },
      ).then((p) => (instances[name] = p));

    beforeAll(async () => {
      const started = Date.now();
      work = fs.mkdtempSync(path.join(ROOT, '.data-topology-'));
      built = path.join(work, 'server', 'main.js');
      const build = spawnSync(process.execPath, ['scripts/build-server.mjs', path.dirname(built)], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      if (build.status !== 0) throw new Error(`server build failed:\n${build.stdout}${build.stderr}`);
      ports = await freePortsIn(43140, 43199, 4);
      const tls = makeCertificate(work);
      cert = tls.cert;
      origin = `https://127.0.0.1:${ports[0]}`;
      const db = await scratchPostgres('topology');
      databases.push(db);
      const { startS3Peer } = await import('../src/server/storage/s3rver-peer');
      s3 = await startS3Peer('topology-audio');
      appEnv = {
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: origin,
        DATABASE_URL: db.url,
        ...s3.env,
        REDIS_URL,
        REDIS_KEY_PREFIX: redisRun.prefix,
        // Only the proxy may name the client: it connects to the instances from 127.0.0.1.
        TRUST_PROXY: '127.0.0.1',
        AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
        DEVICE_COOKIE_SECRET: 'topology-device-cookie-secret-0123456789',
        TOTP_ENCRYPTION_KEYS: `t1:${Buffer.alloc(32, 3).toString('base64')}`,
        METRICS_TOKEN,
        // A demo site: the local payment provider and the mail outbox, opted into explicitly.
        PAYMENTS: 'local',
        MAIL: 'outbox',
      };
      // Migrate once before the instances take traffic (README, Build once, serve many: step 3).
      const migrate = spawnSync(process.execPath, [path.join(work, 'server', 'migrate.js')], {
        env: { PATH: process.env.PATH, ...appEnv, DATA_DIR: path.join(work, 'data-migrate') },
        encoding: 'utf8',
      });
      expect(migrate.stdout + migrate.stderr).toContain('Migrations applied');
      await Promise.all([startInstance('app1', ports[1]!), startInstance('app2', ports[2]!)]);
      database = await openPostgres(db.url);
      pool = new pg.Pool({ connectionString: db.url, max: 2 });
      proxy = await startHaproxy({
        MYM_PROXY_BIND: `127.0.0.1:${ports[0]}`,
        MYM_TLS_PEM: tls.pem,
        MYM_APP_1: `127.0.0.1:${ports[1]}`,
        MYM_APP_2: `127.0.0.1:${ports[2]}`,
      });
      report(
        'topology up',
        `HAProxy ${origin} → app1 :${ports[1]}, app2 :${ports[2]} (built server, NODE_ENV=production), ` +
          `PostgreSQL ${new URL(db.url).pathname.slice(1)}, Redis prefix ${redisRun.prefix}, s3rver, in ${Date.now() - started} ms`,
      );
    }, 240_000);

    afterAll(async () => {
      // What the proxy saw: server state changes and its request log (the tail), for a failed run.
      if (proxy)
        console.log(
          `[topology] HAProxy log (tail):\n${proxy
            .output()
            .split('\n')
            .filter((l) => /is (UP|DOWN)|Health check|50[234]/.test(l))
            .slice(-30)
            .join('\n')}`,
        );
      for (const c of clients) c.close();
      await proxy?.stop();
      await killAllServers();
      await s3?.close();
      await database?.close();
      await pool?.end();
      for (const db of databases) await db.drop().catch(() => {});
      await redisRun.cleanup();
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    it('serves over TLS only through the proxy, both instances healthy, /metrics kept off the public side', async () => {
      const c = clientFrom(2);
      const health = await c.api('GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({
        ok: true,
        database: { status: 'ok', kind: 'postgres' },
        storage: { status: 'ok', kind: 's3' },
        redis: { status: 'ok' },
      });
      expect(health.headers['strict-transport-security']).toContain('max-age=');
      // The scraper's token does not open /metrics through the public address.
      // Nor does any other spelling of the path that the app's router would take for /metrics (issue 29):
      // the proxy answers each itself, so no instance even sees them refused.
      const refusedByApps = () =>
        Promise.all([instances.app1!, instances.app2!].map((p) => servedBy(p, '/metrics', 404)));
      const refusedBefore = await refusedByApps();
      const spellings = [
        '/metrics',
        '/%6detrics',
        '/metric%73',
        '//metrics',
        '/metrics/',
        '/./metrics',
        '/api/../metrics',
        '/METRICS',
      ];
      const answers: Array<Awaited<ReturnType<HttpsClient['api']>>> = [];
      for (const url of spellings)
        answers.push(await c.api('GET', url, undefined, { authorization: `Bearer ${METRICS_TOKEN}` }));
      // All statuses at once, so a failure names every spelling that got through.
      expect(Object.fromEntries(spellings.map((url, i) => [url, answers[i]!.status]))).toEqual(
        Object.fromEntries(spellings.map((url) => [url, 404])),
      );
      for (const a of answers) expect(a.body).toEqual({ message: 'Not found', code: 'not_found' });
      expect(await refusedByApps()).toEqual(refusedBefore);
      // The instances' own guard, should a spelling ever get past the proxy: a forwarded request is refused.
      const forwarded = await api(instances.app1!.origin, 'GET', '/%6detrics', undefined, {
        authorization: `Bearer ${METRICS_TOKEN}`,
        'x-forwarded-for': '203.0.113.9',
      });
      expect(forwarded.status).toBe(404);
      const before = await Promise.all([
        servedBy(instances.app1!, '/api/config'),
        servedBy(instances.app2!, '/api/config'),
      ]);
      for (let i = 0; i < 10; i++) expect((await c.api('GET', '/api/config')).status).toBe(200);
      const after = await Promise.all([
        servedBy(instances.app1!, '/api/config'),
        servedBy(instances.app2!, '/api/config'),
      ]);
      const split = [after[0] - before[0], after[1] - before[1]];
      expect(split[0] + split[1]).toBe(10);
      expect(split[0]).toBeGreaterThan(0);
      expect(split[1]).toBeGreaterThan(0);
      // Browsers speak HTTP/2 to the proxy (ALPN); the instances behind still get HTTP/1.1.
      const h2 = http2.connect(origin, { ca: cert });
      const h2Status = await new Promise<{ status: number; alpn: string | false | undefined }>(
        (resolve, reject) => {
          const req = h2.request({ ':path': '/api/config' });
          req.on('response', (headers) => {
            req.resume();
            req.on('end', () => resolve({ status: Number(headers[':status']), alpn: h2.alpnProtocol }));
          });
          req.on('error', reject);
        },
      ).finally(() => h2.close());
      expect(h2Status).toEqual({ status: 200, alpn: 'h2' });
      report(
        'TLS + health',
        `200, postgres/s3/redis ok, HSTS set, HTTP/2 offered; /metrics via proxy 404 in ${spellings.length} spellings (${spellings.join(' ')}), forwarded to an instance 404; 10 requests split ${split.join(' / ')}`,
      );
    });

    let singer: { token: string; id: number };

    it('register, upload a track and stream it back, subscribe, spend a master download', async () => {
      const c = clientFrom(2);
      const reg = await c.api('POST', '/api/auth/register', {
        email: 'singer@example.test',
        password: PASSWORD,
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      singer = { token: reg.body.authToken, id: reg.body.id };
      const me = await c.api('GET', '/api/auth/user', undefined, {}, singer.token);
      expect(me.body).toMatchObject({ id: singer.id, email: 'singer@example.test' });

      const data = wavBytes({ seconds: 1 });
      const form = multipart([
        { name: 'type', value: 'vocals' },
        { name: 'name', value: 'verse take' },
        { name: 'audio', filename: 'take.wav', contentType: 'audio/wav', data },
      ]);
      const up = await c.send(
        'POST',
        '/api/tracks',
        { ...form.headers, 'content-length': String(form.payload.length), 'x-auth-token': singer.token },
        form.payload,
      );
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      const audio = await c.send('GET', up.body.audioUrl, { 'x-auth-token': singer.token });
      expect(audio.status).toBe(200);
      expect(Buffer.compare(audio.body, data)).toBe(0);

      await subscribe(c, singer.token, 'pro');
      const spend = { type: 'mastering', idempotencyKey: 'singer-master-download-1' };
      const first = await c.api('POST', '/api/spend-credit', spend, {}, singer.token);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.user.masteringCredits).toBe(9);
      // The browser retrying the same download (whichever instance answers): charged once.
      const again = await c.api('POST', '/api/spend-credit', spend, {}, singer.token);
      expect(again.status).toBe(200);
      expect(again.body.user.masteringCredits).toBe(9);
      report(
        'register, upload, spend',
        `201 user ${singer.id}; track ${up.body.id} uploaded (${data.length} B) and streamed back identical; ` +
          `Pro via checkout; master download spent once (mastering credits 10 → 9, the retry replayed)`,
      );
    });

    it('the login limit counts the real client behind the proxy; a spoofed X-Forwarded-For changes nothing', async () => {
      const attacker = clientFrom(3);
      const statuses: number[] = [];
      for (let i = 0; i <= AUTH_RATE_LIMIT; i++) {
        // A fresh made-up address each time: if the app believed it, every attempt would be a new client.
        const res = await attacker.api(
          'POST',
          '/api/auth/login',
          { email: 'singer@example.test', password: `wrong password ${i}` },
          { 'x-forwarded-for': `203.0.113.${i + 1}` },
        );
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.headers['retry-after']).toMatch(/^\d+$/);
          expect(res.body.message).toBe(MESSAGES.tooManyRequests);
        }
      }
      expect(statuses).toEqual([...Array(AUTH_RATE_LIMIT).fill(401), 429]);
      // Even the right password is refused from that client now: the attempt is counted first.
      const blocked = await attacker.api('POST', '/api/auth/login', {
        email: 'singer@example.test',
        password: PASSWORD,
      });
      expect(blocked.status).toBe(429);
      // The owner, from another address, is not locked out.
      const owner = await clientFrom(4).api('POST', '/api/auth/login', {
        email: 'singer@example.test',
        password: PASSWORD,
      });
      expect(owner.status, JSON.stringify(owner.body)).toBe(200);
      report(
        'login limit',
        `127.0.0.3 with a new spoofed X-Forwarded-For each time: ${statuses.join(', ')} (then 429 with the right password); ` +
          `127.0.0.4: ${owner.status}`,
      );
    });

    it('a 100 MB upload passes the proxy; a larger declared body is refused by the proxy in the app’s words', async () => {
      const c = clientFrom(2);
      const big = streamedWavUpload(MAX_TRACK_BYTES - 44, {
        type: 'instrumental',
        name: 'full band, 100 MB',
      });
      const t0 = Date.now();
      const up = await c.send(
        'POST',
        '/api/tracks',
        { ...big.headers, 'x-auth-token': singer.token },
        big.stream(),
      );
      const seconds = (Date.now() - t0) / 1000;
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(up.body).toMatchObject({ size: MAX_TRACK_BYTES });
      // Declared bigger than the proxy's limit: refused before any byte of the body is read.
      const tooBig = await c
        .send(
          'POST',
          '/api/tracks',
          {
            ...big.headers,
            'content-length': String(150 * 1024 * 1024),
            'x-auth-token': singer.token,
          },
          Buffer.alloc(0),
        )
        .catch((err: Error) => ({ status: -1, body: err.message, headers: {} }));
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toEqual({ message: MESSAGES.fileTooLarge, code: 'file_too_large' });
      report(
        '100 MB upload',
        `201 (${up.body.size} B file, ${(big.totalBytes / 1048576).toFixed(1)} MiB body) in ${seconds.toFixed(1)} s ` +
          `(${(big.totalBytes / 1048576 / seconds).toFixed(0)} MiB/s); 150 MiB declared: 413 from the proxy`,
      );
    }, 180_000);

    it('kill -9 of one instance mid-traffic: the proxy fails over, nothing the client was told succeeded is lost', async () => {
      const c = clientFrom(5);
      const racer = await proUser(c, 'racer@example.test');
      const victim = instances.app1!;
      const survivor = instances.app2!;
      const spendsBefore = await servedBy(survivor, '/api/spend-credit');
      const traffic = moneyTraffic(c, racer);
      // Traffic on both instances first.
      await traffic.until(40);
      while ((await servedBy(victim, '/api/spend-credit')) === 0 && traffic.done.length < 400)
        await traffic.until(traffic.done.length + 10);
      expect(await servedBy(victim, '/api/spend-credit'), 'app1 served before the kill').toBeGreaterThan(0);
      // Nothing fails while nothing is broken.
      expect(traffic.failures).toEqual([]);
      const logBeforeKill = proxy.mark();
      const killedAt = Date.now();
      const doneAtKill = traffic.done.length;
      await victim.crash();
      await proxy.waitForLog('app/app1 is DOWN', logBeforeKill);
      const downAfter = Date.now() - killedAt;
      // Traffic goes on on the survivor alone for a while.
      await traffic.until(traffic.done.length + 40);
      await traffic.stop();
      expect(traffic.unexpected).toEqual([]);
      const { buys, spends } = await expectEachOperationOnce(c, racer, traffic.done);
      const survivorServed = (await servedBy(survivor, '/api/spend-credit')) - spendsBefore;
      expect(survivorServed).toBeGreaterThan(0);
      const { failures } = traffic;
      const lastFailure = failures.length ? Math.max(...failures.map((f) => f.at)) - killedAt : 0;
      report(
        'failover',
        `${traffic.done.length} operations succeeded (${doneAtKill} before the kill; ${buys} crown purchases, ${spends} spends), ` +
          `all in the database exactly once; ${failures.length} retryable failures (${tallyOf(failures)}), ` +
          `${traffic.done.filter((d) => d.tries > 1).length} operations retried with their key, ` +
          `the last failure ${lastFailure} ms after the kill; HAProxy marked app1 DOWN after ${downAfter} ms; ` +
          `app2 served ${survivorServed} spends`,
      );

      // The killed instance comes back on its port and the proxy takes it in again.
      const logBeforeRestart = proxy.mark();
      await startInstance('app1', ports[1]!);
      await proxy.waitForLog('app/app1 is UP', logBeforeRestart);
      report('rejoin', 'app1 restarted; HAProxy marked it UP');
    }, 180_000);

    it('SIGTERM of one instance under traffic (a rolling restart): it drains, the proxy moves away, no request fails', async () => {
      const c = clientFrom(8);
      const roller = await proUser(c, 'roller@example.test');
      const traffic = moneyTraffic(c, roller);
      await traffic.until(40);
      const from = proxy.mark();
      const signalledAt = Date.now();
      const exitCode = instances.app2!.stop();
      await proxy.waitForLog('app/app2 is DOWN', from);
      const downAfter = Date.now() - signalledAt;
      expect(await exitCode).toBe(0);
      const exitedAfter = Date.now() - signalledAt;
      await traffic.until(traffic.done.length + 40);
      await traffic.stop();
      expect(traffic.unexpected).toEqual([]);
      expect(traffic.failures).toEqual([]);
      const { buys, spends } = await expectEachOperationOnce(c, roller, traffic.done);
      const restartFrom = proxy.mark();
      await startInstance('app2', ports[2]!);
      await proxy.waitForLog('app/app2 is UP', restartFrom);
      report(
        'rolling restart',
        `SIGTERM to app2 under traffic: its probes answered 503 while it served on, HAProxy marked it DOWN after ` +
          `${downAfter} ms, it exited 0 after ${exitedAfter} ms; ${traffic.done.length} operations (${buys} purchases, ` +
          `${spends} spends), 0 failed; app2 restarted and marked UP`,
      );
    }, 180_000);

    it('backup and restore: pg_dump → a new database → the built app on it, every user logs in with the same balance', async () => {
      // A user without a subscription too, so the restore covers every kind of account here.
      const trial = await clientFrom(6).api('POST', '/api/auth/register', {
        email: 'listener@example.test',
        password: PASSWORD,
      });
      expect(trial.status).toBe(201);
      const source = databases[0]!;
      const usersQuery =
        'select id, email, crowns, mastering_credits, mix_credits, subscription_type from users order by id';
      const before = (await pool.query(usersQuery)).rows;
      const tracksBefore = (
        await pool.query('select id, user_id, name, size_bytes, storage_key from tracks order by id')
      ).rows;
      expect(before.length).toBeGreaterThanOrEqual(3);
      expect(tracksBefore.length).toBe(2);
      const countsOf = async (url: string) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          const tables = await c.query<{ name: string }>(
            `select schemaname || '.' || tablename as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
          );
          const counts: Record<string, number> = {};
          for (const { name } of tables.rows)
            counts[name] = Number((await c.query(`select count(*) from ${name}`)).rows[0].count);
          return counts;
        } finally {
          await c.end();
        }
      };
      const countsBefore = await countsOf(source.url);

      const file = path.join(work, 'mix.dump');
      const backup = spawnSync('sh', [path.join(ROOT, 'docs/deploy/db-backup.sh'), source.url, file], {
        encoding: 'utf8',
      });
      expect(backup.status, backup.stderr).toBe(0);
      const restored = await scratchPostgres('topology_restored');
      databases.push(restored);
      const restore = () =>
        spawnSync('sh', [path.join(ROOT, 'docs/deploy/db-restore.sh'), file, restored.url], {
          encoding: 'utf8',
        });
      const first = restore();
      expect(first.status, first.stderr).toBe(0);
      // A second restore into the now full database is refused: a restore never overwrites data.
      const second = restore();
      expect(second.status).toBe(1);
      expect(second.stderr).toContain('refusing to restore');
      expect(await countsOf(restored.url)).toEqual(countsBefore);

      const migrate = spawnSync(process.execPath, [path.join(work, 'server', 'migrate.js')], {
        env: {
          PATH: process.env.PATH,
          ...appEnv,
          DATABASE_URL: restored.url,
          DATA_DIR: path.join(work, 'data-restore'),
        },
        encoding: 'utf8',
      });
      expect(migrate.stdout + migrate.stderr).toContain('Migrations applied');
      const app = await startServerProcess(
        'restored',
        {
          ...appEnv,
          DATABASE_URL: restored.url,
          DATA_DIR: path.join(work, 'data-restored'),
          REDIS_KEY_PREFIX: `${redisRun.prefix}restored:`,
          AUTH_RATE_LIMIT: '1000',
          TRUST_PROXY: '',
        },
        { port: ports[3], built, timeoutMs: 90_000 },
      );
      for (const u of before) {
        const login = await api(app.origin, 'POST', '/api/auth/login', {
          email: u.email,
          password: PASSWORD,
        });
        expect(login.status, `${u.email}: ${JSON.stringify(login.body)}`).toBe(200);
        expect(login.body).toMatchObject({
          id: u.id,
          email: u.email,
          crowns: u.crowns,
          masteringCredits: u.mastering_credits,
          mixCredits: u.mix_credits,
          subscriptionType: u.subscription_type,
        });
      }
      // The track rows point at the same objects in the bucket: the audio streams from the restored app.
      const login = await api(app.origin, 'POST', '/api/auth/login', {
        email: 'singer@example.test',
        password: PASSWORD,
      });
      const list = await api(app.origin, 'GET', '/api/tracks', undefined, {
        'x-auth-token': login.body.authToken,
      });
      expect(list.body.tracks.map((t: { id: number }) => t.id).sort()).toEqual(
        tracksBefore.map((t) => t.id).sort(),
      );
      const small = list.body.tracks.find((t: { name: string }) => t.name === 'verse take');
      const audio = await fetch(`${app.origin}${small.audioUrl}`, {
        headers: { 'x-auth-token': login.body.authToken },
      });
      expect(audio.status).toBe(200);
      expect((await audio.arrayBuffer()).byteLength).toBe(small.size);
      report(
        'backup and restore',
        `db-backup.sh wrote ${fs.statSync(file).size} B; db-restore.sh into ${new URL(restored.url).pathname.slice(1)}: ` +
          `${Object.keys(countsBefore).length} tables with the same row counts (a second restore refused); migrate; ` +
          `the built app on it: ${before.length} users logged in with the same balances, ${tracksBefore.length} tracks listed, audio streamed`,
      );
    }, 180_000);

    it('with no instance left the proxy answers 503 in the app’s error format, which clients retry', async () => {
      const from = proxy.mark();
      await Promise.all([instances.app1!.crash(), instances.app2!.crash()]);
      await proxy.waitForLog('app/app1 is DOWN', from);
      await proxy.waitForLog('app/app2 is DOWN', from);
      const res = await clientFrom(7).api('GET', '/api/auth/user');
      expect(res.status).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      report('all instances down', `503 ${JSON.stringify(res.body)}`);
    });

    /** A Pro user registered and subscribed through the proxy. */
    async function proUser(c: HttpsClient, email: string) {
      const reg = await c.api('POST', '/api/auth/register', { email, password: PASSWORD });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      const user = { token: reg.body.authToken as string, id: reg.body.id as number };
      await subscribe(c, user.token, 'pro');
      return user;
    }

    /** Every operation the client saw succeed is in the database exactly once, and the balances add up. */
    async function expectEachOperationOnce(
      c: HttpsClient,
      user: { token: string; id: number },
      done: Operation[],
    ) {
      const spends = done.filter((d) => d.op === 'spend').map((d) => `spend:${user.id}:${d.key}`);
      const buys = done.filter((d) => d.op === 'buy').length;
      const ledger = await pool.query<{ reference: string }>(
        `select reference from credit_ledger where user_id = $1 and reason = 'spend_mastering'`,
        [user.id],
      );
      expect(ledger.rows.map((r) => r.reference).sort()).toEqual([...spends].sort());
      const paid = await pool.query<{ n: number; crowns: number }>(
        `select count(*)::int as n, coalesce(sum(crowns), 0)::int as crowns from local_payments where user_id = $1 and kind = 'crowns'`,
        [user.id],
      );
      expect(paid.rows[0]).toEqual({ n: buys, crowns: buys });
      await expectLedgerMatchesBalances(database.db, user.id);
      // Pro's 10 mastering credits were spent first, then one crown per further download.
      const me = await c.api('GET', '/api/auth/user', undefined, {}, user.token);
      expect(me.body).toMatchObject({
        masteringCredits: Math.max(0, 10 - spends.length),
        crowns: buys - Math.max(0, spends.length - 10),
      });
      return { buys, spends: spends.length };
    }

    /** Pro or Unlimited through the local provider's hosted checkout, all through the proxy. */
    async function subscribe(c: HttpsClient, token: string, plan: 'pro' | 'unlimited') {
      const checkout = await c.api(
        'POST',
        '/api/create-checkout-session',
        { lookup_key: `${plan}_plan` },
        {},
        token,
      );
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
      const url = new URL(checkout.body.url as string);
      expect(url.origin).toBe(origin);
      const form = Buffer.from(successfulCardForm());
      const paid = await c.send(
        'POST',
        url.pathname + url.search,
        { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) },
        form,
      );
      expect(paid.status).toBe(303);
    }
  },
);
