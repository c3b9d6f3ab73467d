import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPostgres } from '../src/server/db/client';
import { users } from '../src/server/db/schema';
import { expectLedgerMatchesBalances } from '../src/server/modules/billing/billing-test-helpers';
import { multipart, wavBytes } from '../src/server/modules/tracks/test-uploads';
import { type S3Peer, startS3Peer } from '../src/server/storage/s3rver-peer';
import { resetDatabase, testPostgresUrl } from '../src/server/test/harness';
import { heldUpload, subscribeOverHttp, uploadWav } from './helpers/http-flows';
import {
  api,
  killAllServers,
  REDIS_URL,
  redisRunPrefix,
  redisSkipReason,
  registerUser,
  type ServerProcess,
  startServerProcess,
  tempDir,
} from './helpers/server-processes';

/**
 * Two server processes on different ports against one PostgreSQL, one S3 peer (s3rver) and one Redis:
 * nothing a user sees lives in one process's memory.
 */
const AUTH_RATE_LIMIT = 20;
const SPENDS = 200;

const skip = inject('postgresSkipReason') || (await redisSkipReason());

describe.skipIf(Boolean(skip))(
  `scale-out: two processes, one PostgreSQL + S3 + Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let s3: S3Peer;
    let database: Database;
    const redisRun = redisRunPrefix('scale-out');

    beforeAll(async () => {
      const url = await testPostgresUrl();
      database = await openPostgres(url);
      await resetDatabase(database);
      s3 = await startS3Peer('scale-out');
      const env = {
        DATABASE_URL: url,
        ...s3.env,
        REDIS_URL,
        REDIS_KEY_PREFIX: redisRun.prefix,
        AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
        UPLOADS_PER_USER: '2',
      };
      // Each process gets its own DATA_DIR: nothing on local disk may be shared between them.
      [a, b] = await Promise.all([
        startServerProcess('a', { ...env, DATA_DIR: tempDir('scale-a') }),
        startServerProcess('b', { ...env, DATA_DIR: tempDir('scale-b') }),
      ]);
    }, 120_000);

    afterAll(async () => {
      await killAllServers();
      await s3?.close();
      await database?.close();
      await redisRun.cleanup();
    });

    it('reports PostgreSQL, storage and Redis as healthy on both', async () => {
      for (const p of [a, b]) {
        const res = await api(p.origin, 'GET', '/api/health');
        expect(res).toMatchObject({
          status: 200,
          body: {
            ok: true,
            database: { status: 'ok', kind: 'postgres' },
            storage: { status: 'ok', kind: 's3' },
            redis: { status: 'ok' },
          },
        });
      }
    });

    it('a session made on one process works on the other, and a logout on one ends it on both', async () => {
      const { token, id } = await registerUser(a.origin, 'roaming@example.test');
      const onB = await api(b.origin, 'GET', '/api/auth/user', undefined, { 'x-auth-token': token });
      expect(onB.status).toBe(200);
      expect(onB.body).toMatchObject({ id, email: 'roaming@example.test' });
      expect((await api(b.origin, 'POST', '/api/auth/logout', {}, { 'x-auth-token': token })).status).toBe(
        200,
      );
      expect(
        (await api(a.origin, 'GET', '/api/auth/user', undefined, { 'x-auth-token': token })).status,
      ).toBe(401);
    });

    it('a track uploaded through one process streams, whole and by range, from the other', async () => {
      const { token } = await registerUser(b.origin, 'producer@example.test');
      const up = await uploadWav(a.origin, token, 'shared take', 1);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      const { id, audioUrl } = up.body as { id: number; audioUrl: string };
      const whole = await fetch(`${b.origin}${audioUrl}`, { headers: { 'x-auth-token': token } });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(up.data)).toBe(true);
      const part = await fetch(`${b.origin}${audioUrl}`, {
        headers: { 'x-auth-token': token, range: 'bytes=44-1043' },
      });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(up.data.subarray(44, 1044))).toBe(true);
      const list = await api(b.origin, 'GET', '/api/tracks', undefined, { 'x-auth-token': token });
      expect(list.body.tracks.map((t: { id: number }) => t.id)).toEqual([id]);
      // Deleted through B, gone for A as well.
      expect(
        (await api(b.origin, 'DELETE', `/api/tracks/${id}`, undefined, { 'x-auth-token': token })).status,
      ).toBe(204);
      expect((await fetch(`${a.origin}${audioUrl}`, { headers: { 'x-auth-token': token } })).status).toBe(
        404,
      );
    });

    it(`${SPENDS} concurrent spends split over both processes leave exactly the right balance`, async () => {
      const { token, id } = await registerUser(a.origin, 'racer@example.test');
      await subscribeOverHttp(a.origin, token, 'pro');
      expect(
        (await api(b.origin, 'POST', '/api/purchase-crowns', { amount: 5 }, { 'x-auth-token': token }))
          .status,
      ).toBe(200);
      const statuses = await Promise.all(
        Array.from({ length: SPENDS }, (_, i) =>
          api(
            i % 2 ? b.origin : a.origin,
            'POST',
            '/api/spend-credit',
            { type: 'mastering', idempotencyKey: `split-key-${i}` },
            { 'x-auth-token': token },
          ).then((r) => r.status),
        ),
      );
      // Pro: 10 mastering credits, then 5 crowns; everything after that is refused, nothing is lost.
      const tally: Record<number, number> = {};
      for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
      expect(tally).toEqual({ 200: 15, 402: SPENDS - 15 });
      expect(statuses.filter((s) => s === 200).length).toBe(15);
      expect(statuses.filter((s) => s === 402).length).toBe(SPENDS - 15);
      const [row] = await database.db.select().from(users).where(eq(users.id, id));
      expect(row).toMatchObject({ masteringCredits: 0, crowns: 0, mixCredits: 10 });
      await expectLedgerMatchesBalances(database.db, id);
    }, 60_000);

    it('parallel uploads of one user are limited across both processes', async () => {
      const { token } = await registerUser(a.origin, 'uploader@example.test');
      const form = multipart([
        { name: 'type', value: 'vocals' },
        { name: 'name', value: 'held' },
        { name: 'audio', filename: 'held.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 1 }) },
      ]);
      // Two uploads in progress, one on each process (their bodies held half-sent).
      const first = heldUpload(a.origin, token, form.payload, form.headers, 4096);
      const second = heldUpload(b.origin, token, form.payload, form.headers, 4096);
      await new Promise((r) => setTimeout(r, 500));
      const third = await uploadWav(a.origin, token, 'third');
      expect(third.status).toBe(429);
      expect((third.body as { message: string }).message).toBe(
        'You already have 2 uploads in progress. Please wait for one to finish.',
      );
      expect(await first.finish()).toMatchObject({ status: 201 });
      const fourth = await uploadWav(b.origin, token, 'fourth');
      expect(fourth.status).toBe(201);
      expect(await second.finish()).toMatchObject({ status: 201 });
    });

    it('the login rate limit counts attempts made on both processes', async () => {
      await registerUser(a.origin, 'target@example.test');
      // Failed logins per email and address (10 in 15 minutes), alternating processes: the 11th is refused
      // on either (login-lockout.test.ts covers the owner getting in from elsewhere or a known browser).
      const wrong = (i: number) =>
        api(i % 2 ? b.origin : a.origin, 'POST', '/api/auth/login', {
          email: 'target@example.test',
          password: `wrong guess ${i}`,
        });
      const failures: number[] = [];
      for (let i = 0; i < 10; i++) failures.push((await wrong(i)).status);
      expect(failures).toEqual(Array(10).fill(401));
      expect((await wrong(10)).status).toBe(429);
      const right = await api(b.origin, 'POST', '/api/auth/login', {
        email: 'target@example.test',
        password: 'correct horse battery',
      });
      expect(right.status).toBe(429);

      // The per-address limit (AUTH_RATE_LIMIT register/login attempts from 127.0.0.1) is shared the same way.
      let allowed = 0;
      for (let i = 0; i < AUTH_RATE_LIMIT + 2; i++) {
        const res = await api(i % 2 ? a.origin : b.origin, 'POST', '/api/auth/login', {
          email: `nobody${i}@example.test`,
          password: 'whatever it is',
        });
        if (res.status === 429) break;
        allowed++;
      }
      // Already spent from this address in this suite: 5 registrations + 12 logins above.
      expect(allowed).toBe(AUTH_RATE_LIMIT - 17);
    });
  },
);
