import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  MAX_SESSION_BYTES,
  MAX_SESSIONS_PER_USER,
  SESSION_MESSAGES,
  type SessionClip,
  type SessionInput,
} from '../../../shared/api/sessions';
import { mixerSessions } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { multipart, wavBytes } from '../tracks/test-uploads';

type Api = Awaited<ReturnType<typeof signedUpClient>>['c'];

/** `n` clips per source, as the mixer writes them: its own ids, full float precision. */
function arrangement(n: number, idOf = (kind: string, i: number) => `${kind}-clip-${i}`): SessionInput {
  const clips = (kind: 'vocals' | 'instrumental'): SessionClip[] =>
    Array.from({ length: n }, (_, i) => ({
      id: idOf(kind, i),
      trackType: kind,
      startTime: i * 0.123456789012345,
      endTime: i * 0.123456789012345 + 0.0987654321098765,
      position: i * 1.2345678901234567,
      selected: i % 2 === 0,
    }));
  return {
    name: `Session with ${n} clips a side`,
    vocalDuration: 1000,
    instrumentalDuration: 1000,
    clips: { vocals: clips('vocals'), instrumental: clips('instrumental') },
    style: 'balanced',
    outputVolume: 80,
  };
}

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const countOf = async (ctx: { database: { db: import('../../db/client').Db } }, userId: number) =>
  (await ctx.database.db.select().from(mixerSessions).where(eq(mixerSessions.userId, userId))).length;

async function uploadWav(c: Api, wav: Buffer) {
  const { payload, headers } = multipart([
    { name: 'audio', filename: 'v.wav', contentType: 'audio/wav', data: wav },
    { name: 'type', value: 'vocals' },
    { name: 'name', value: 'v' },
    { name: 'duration', value: '0' },
  ]);
  return c.post('/api/tracks', payload, headers);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-limits-'));

describeEachDatabase(
  'mixer session limits',
  (ctx) => {
    it('saves the longest arrangement the mixer makes (1000 clips a side), well under the size cap', async () => {
      const { c } = await signedUpClient(ctx.app);
      const longest = arrangement(1000);
      expect(jsonBytes(longest)).toBeLessThan(MAX_SESSION_BYTES * 0.7);
      expect((await c.post('/api/sessions', longest)).status).toBe(201);
    });

    it('refuses a session over 512 KB with its own message, on save and on replace, changing nothing', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      // 100-character ids of two-byte letters: within the schema, within the 1 MB body limit, over 512 KB.
      const bloated = arrangement(1000, (kind, i) => `${kind}${i}`.padEnd(100, 'é'));
      expect(jsonBytes(bloated)).toBeGreaterThan(MAX_SESSION_BYTES);
      expect(jsonBytes(bloated)).toBeLessThan(1024 * 1024);
      const refused = await c.post('/api/sessions', bloated);
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ message: SESSION_MESSAGES.tooLarge, code: 'session_too_large' });
      expect(await countOf(ctx, user.id)).toBe(0);

      const small = (await c.post('/api/sessions', arrangement(2))).body as { id: number };
      const replaced = await c.put(`/api/sessions/${small.id}`, bloated);
      expect(replaced.status).toBe(413);
      expect((await c.get(`/api/sessions/${small.id}`)).body).toMatchObject({
        name: 'Session with 2 clips a side',
      });
    });

    it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per user, also when saves arrive together`, async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const other = await signedUpClient(ctx.app);
      for (let i = 0; i < MAX_SESSIONS_PER_USER - 5; i++)
        expect((await c.post('/api/sessions', { name: `take ${i}` })).status).toBe(201);
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => c.post('/api/sessions', { name: `burst ${i}` })),
      );
      expect(burst.filter((r) => r.status === 201)).toHaveLength(5);
      for (const r of burst.filter((r) => r.status !== 201))
        expect(r).toMatchObject({
          status: 409,
          body: { message: SESSION_MESSAGES.tooMany, code: 'too_many_sessions' },
        });
      expect(await countOf(ctx, user.id)).toBe(MAX_SESSIONS_PER_USER);
      // Replacing one is still allowed, and so is another user's first save.
      const { sessions } = (await c.get('/api/sessions?limit=1')).body as { sessions: Array<{ id: number }> };
      expect((await c.put(`/api/sessions/${sessions[0]!.id}`, { name: 'renamed' })).status).toBe(200);
      expect((await other.c.post('/api/sessions', { name: 'mine' })).status).toBe(201);
    });
  },
  { env: { DATA_DIR: dataDir } },
);

describeEachDatabase(
  'mixer sessions in the storage quota',
  (ctx) => {
    const wav = wavBytes({ seconds: 0.5 }); // 88,244 bytes
    const session = arrangement(400); // about 120 KB of JSON

    it('counts saved sessions toward the quota of uploads and saves', async () => {
      const { c } = await signedUpClient(ctx.app);
      const size = jsonBytes(session);
      expect(size).toBeGreaterThan(100 * 1024);
      expect((await uploadWav(c, wav)).status).toBe(201);
      const saved = await c.post('/api/sessions', session);
      expect(saved.status).toBe(201);
      const list = (await c.get('/api/tracks')).body as { usedBytes: number };
      expect(list.usedBytes).toBeGreaterThan(wav.length + size - 1024);

      // 250 KB quota: the WAV and one session fit; a second session, or another WAV, does not.
      const second = await c.post('/api/sessions', session);
      expect(second).toMatchObject({
        status: 413,
        body: {
          message:
            'You have used your 1 MB of storage. Delete some tracks or saved sessions to save this session.',
          code: 'storage_quota_exceeded',
        },
      });
      const upload = await uploadWav(c, wav);
      expect(upload).toMatchObject({ status: 413, body: { code: 'storage_quota_exceeded' } });
      expect(((await c.get('/api/sessions')).body as { sessions: unknown[] }).sessions).toHaveLength(1);

      // Shrinking a session always fits; deleting it frees its bytes for an upload.
      const id = (saved.body as { id: number }).id;
      expect((await c.put(`/api/sessions/${id}`, arrangement(1))).status).toBe(200);
      expect((await uploadWav(c, wav)).status).toBe(201);
    });
  },
  { env: { DATA_DIR: dataDir, STORAGE_QUOTA_BYTES: String(250 * 1024) } },
);
