import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testPostgresUrl } from '../src/server/test/harness';
import { MESSAGES } from '../src/shared/messages';
import { killAllServers, registerUser, startServerProcess, tempDir } from './helpers/server-processes';

/**
 * PostgreSQL restarted under load: requests during the outage fail with a clear 503, and the server
 * recovers by itself afterwards. This stops and starts the SHARED local cluster, which breaks every other
 * test using PostgreSQL at that moment, including the other Vitest worker of the same run. So it runs only
 * when asked (FAULTS_RESTART_PG=1), as its own step: `npm test` does that when CI=true (CI runs alone),
 * after the parallel suite (scripts/test-all.mjs).
 */
const OUTAGE_MS = 3000;
const CLUSTER = (process.env.FAULTS_PG_CLUSTER ?? '15 main').split(' ');
const optedIn = process.env.FAULTS_RESTART_PG === '1';
const canRestart =
  spawnSync('sh', ['-c', 'command -v pg_ctlcluster'], { stdio: 'ignore' }).status === 0 &&
  process.getuid?.() === 0;
const skip = !optedIn
  ? 'opt-in: FAULTS_RESTART_PG=1 (npm test sets it on CI, in a step of its own)'
  : inject('postgresSkipReason') || (canRestart ? '' : 'needs pg_ctlcluster and root to restart PostgreSQL');

describe.skipIf(Boolean(skip))(
  `faults: PostgreSQL restarted under load${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    afterAll(() => killAllServers());

    it('answers 503 with a clear message during the outage and recovers by itself', async () => {
      const server = await startServerProcess('pg-restart', {
        DATABASE_URL: await testPostgresUrl(),
        DATA_DIR: tempDir('pg-restart'),
      });
      const { token } = await registerUser(server.origin, `restart-${Date.now()}@example.test`);
      const outcomes: Array<{ at: number; status: number; message?: string }> = [];
      let running = true;
      const worker = async () => {
        while (running) {
          const res = await fetch(`${server.origin}/api/auth/user`, {
            headers: { 'x-auth-token': token },
            signal: AbortSignal.timeout(20_000),
          }).catch(() => null);
          if (!res) {
            outcomes.push({ at: Date.now(), status: 0 });
            continue;
          }
          const body = (await res.json().catch(() => ({}))) as { message?: string };
          outcomes.push({ at: Date.now(), status: res.status, message: body.message });
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await new Promise((r) => setTimeout(r, 1000));
      const restartAt = Date.now();
      // A plain `restart` is over in ~0.2 s here, too short for requests to meet it: the cluster is stopped,
      // left down for OUTAGE_MS under load, then started again; asynchronously, so the load keeps running.
      const ctl = (action: 'stop' | 'start') =>
        new Promise<{ status: number | null; stderr: string }>((resolve) => {
          const child = spawn('pg_ctlcluster', ['--skip-systemctl-redirect', ...CLUSTER, action]);
          let stderr = '';
          child.stderr.on('data', (d) => (stderr += d));
          child.on('exit', (status) => resolve({ status, stderr }));
        });
      const stopped = await ctl('stop');
      expect(stopped.status, stopped.stderr).toBe(0);
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      const started = await ctl('start');
      expect(started.status, started.stderr).toBe(0);
      const backAt = Date.now();
      // Keep the load on until requests succeed again without anybody touching the server.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !outcomes.some((o) => o.at > backAt && o.status === 200))
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1000));
      running = false;
      await Promise.all(workers);

      const during = outcomes.filter((o) => o.at >= restartAt);
      const failures = during.filter((o) => o.status !== 200);
      const tally: Record<string, number> = {};
      for (const o of during) tally[o.status] = (tally[o.status] ?? 0) + 1;
      console.log(
        `PostgreSQL down and back within ${backAt - restartAt} ms; answers from then on: ${JSON.stringify(tally)}`,
      );
      // The outage was seen, and every failure was the clear 503, never a 500 or a dropped connection.
      expect(failures.length).toBeGreaterThan(0);
      for (const f of failures)
        expect(f).toMatchObject({ status: 503, message: MESSAGES.serviceUnavailable });
      // Recovered by itself: the last answers are all 200, and health is back.
      expect(outcomes.slice(-8).every((o) => o.status === 200)).toBe(true);
      const health = await fetch(`${server.origin}/api/health`);
      expect(health.status).toBe(200);
    }, 120_000);
  },
);
