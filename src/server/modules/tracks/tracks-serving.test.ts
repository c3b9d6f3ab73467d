/**
 * The tracks API after an upload: who may see a track, its audio served (ranges, caching, names), listing and
 * deletion, storage in the health check, and the storage quota. Uploads themselves are in tracks.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { tracks } from '../../db/schema';
import { client, describeEachDatabase, signedUpClient } from '../../test/harness';
import { filesUnder, wavBytes } from './test-uploads';
import { snapshot, upload } from './tracks-test-client';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracks-serving-test-'));
const filesDir = path.join(dataDir, 'files');

describeEachDatabase(
  'tracks access, serving and listing',
  (ctx) => {
    const wav = wavBytes({ seconds: 0.5 });
    // The harness empties the tables before each test; the storage folder starts empty alongside them.
    beforeEach(() => fs.rmSync(filesDir, { recursive: true, force: true }));

    describe('access', () => {
      it('gives another user 404 for the track, its audio and its deletion, and signed-out callers 401', async () => {
        const a = await signedUpClient(ctx.app);
        const b = await signedUpClient(ctx.app);
        const id = ((await upload(a.c, wav)).body as { id: number }).id;
        for (const url of [`/api/tracks/${id}`, `/api/tracks/${id}/audio`, '/api/tracks/999999']) {
          const res = await b.c.get(url);
          expect(res.status, url).toBe(404);
          expect(res.body).toMatchObject({ message: 'Track not found' });
        }
        expect((await b.c.delete(`/api/tracks/${id}`)).status).toBe(404);
        expect(((await b.c.get('/api/tracks')).body as { tracks: unknown[] }).tracks).toEqual([]);
        const anon = client(ctx.app);
        for (const url of [`/api/tracks/${id}`, `/api/tracks/${id}/audio`, '/api/tracks']) {
          expect((await anon.get(url)).status, url).toBe(401);
        }
        expect((await anon.delete(`/api/tracks/${id}`)).status).toBe(401);
        expect((await a.c.get(`/api/tracks/${id}`)).status).toBe(200);
      });

      it.each(['abc', '0', '-1', '1.5', '1e3', '99999999999', '%20'])(
        'answers 400 Invalid track ID for %j',
        async (bad) => {
          const { c } = await signedUpClient(ctx.app);
          for (const url of [`/api/tracks/${bad}`, `/api/tracks/${bad}/audio`]) {
            const res = await c.get(url);
            expect(res.status, url).toBe(400);
            expect(res.body).toMatchObject({ message: MESSAGES.invalidTrackId });
          }
          expect((await c.delete(`/api/tracks/${bad}`)).status).toBe(400);
        },
      );
    });

    describe('audio serving', () => {
      const audioOf = async (range?: string, extra: Record<string, string> = {}) => {
        const { c } = await signedUpClient(ctx.app);
        const res = await upload(c, wav, { field: { name: '../"evil"\\name;\r\nX-Injected: 1' } });
        const { audioUrl } = res.body as { audioUrl: string };
        return ctx.app.inject({
          url: audioUrl,
          headers: { 'x-auth-token': c.token!, ...(range ? { range } : {}), ...extra },
        });
      };

      it('sends safe headers with the whole file', async () => {
        const res = await audioOf();
        expect(res.statusCode).toBe(200);
        expect(res.headers).toMatchObject({
          'accept-ranges': 'bytes',
          'content-type': 'audio/wav',
          'content-length': String(wav.length),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cross-origin-resource-policy': 'same-origin',
          'content-disposition': 'inline; filename="evilnameX-Injected 1.wav"',
        });
        expect(res.headers['x-injected']).toBeUndefined();
      });

      it.each([
        ['bytes=0-99', 0, 99],
        ['bytes=100-', 100, wav.length - 1],
        ['bytes=-50', wav.length - 50, wav.length - 1],
        ['bytes=40-999999999', 40, wav.length - 1],
        [`bytes=${wav.length - 1}-${wav.length - 1}`, wav.length - 1, wav.length - 1],
      ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
        const res = await audioOf(range);
        expect(res.statusCode).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${wav.length}`);
        expect(res.headers['content-length']).toBe(String(end - start + 1));
        expect(res.rawPayload.equals(wav.subarray(start, end + 1))).toBe(true);
      });

      it.each([
        `bytes=${wav.length}-`,
        'bytes=500-100',
        'bytes=-0',
        'bytes=abc',
        'bytes=-',
        'bytes=0-1,5-6',
        'bytes=0-10, 20-30, 40-50',
      ])('refuses Range %s with 416', async (range) => {
        const res = await audioOf(range);
        expect(res.statusCode).toBe(416);
        expect(res.headers['content-range']).toBe(`bytes */${wav.length}`);
      });

      it('answers HEAD with the headers only, leaving no file open', async () => {
        const { c } = await signedUpClient(ctx.app);
        const { audioUrl } = (await upload(c, wav)).body as { audioUrl: string };
        const openFiles = () => fs.readdirSync('/proc/self/fd').length;
        const before = openFiles();
        for (let i = 0; i < 20; i++) {
          const res = await ctx.app.inject({
            method: 'HEAD',
            url: audioUrl,
            headers: { 'x-auth-token': c.token! },
          });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-length']).toBe(String(wav.length));
          expect(res.rawPayload.length).toBe(0);
        }
        await expect.poll(openFiles).toBeLessThanOrEqual(before + 2);
      });

      it('sends the whole file for an If-Range that no longer matches, and 304 for a matching ETag', async () => {
        const stale = await audioOf('bytes=0-9', { 'if-range': '"other"' });
        expect(stale.statusCode).toBe(200);
        expect(stale.rawPayload.length).toBe(wav.length);
        const etag = stale.headers.etag as string;
        const { c } = await signedUpClient(ctx.app);
        const id = ((await upload(c, wav)).body as { id: number }).id;
        const again = await ctx.app.inject({
          url: `/api/tracks/${id}/audio`,
          headers: { 'x-auth-token': c.token!, 'if-none-match': `"t${id}-${wav.length}"` },
        });
        expect(again.statusCode).toBe(304);
        expect(etag).toMatch(/^"t\d+-\d+"$/);
      });
    });

    it("lists the user's tracks newest first, page by page, and deletes row and file", async () => {
      const { c } = await signedUpClient(ctx.app);
      const ids: number[] = [];
      for (const name of ['one', 'two', 'three'])
        ids.push(((await upload(c, wav, { field: { name } })).body as { id: number }).id);
      const first = await c.get('/api/tracks?limit=2');
      expect(first.body).toMatchObject({
        tracks: [
          { id: ids[2], name: 'three' },
          { id: ids[1], name: 'two' },
        ],
        nextCursor: ids[1],
        usedBytes: 3 * wav.length,
        quotaBytes: 2 * 1024 ** 3,
      });
      const second = await c.get(`/api/tracks?limit=2&before=${ids[1]}`);
      expect(second.body).toMatchObject({ tracks: [{ id: ids[0], name: 'one' }], nextCursor: null });

      const before = filesUnder(filesDir);
      expect((await c.delete(`/api/tracks/${ids[0]}`)).status).toBe(204);
      expect(filesUnder(filesDir)).toHaveLength(before.length - 1);
      expect((await c.get(`/api/tracks/${ids[0]}`)).status).toBe(404);
      expect((await c.delete(`/api/tracks/${ids[0]}`)).status).toBe(404);
    });

    it("deletes every object and row of a user whose account is deleted, and nobody else's", async () => {
      const a = await signedUpClient(ctx.app);
      const b = await signedUpClient(ctx.app);
      await upload(a.c, wav);
      await upload(a.c, wav);
      await upload(b.c, wav);
      await a.c.post('/api/sessions', { name: 'A session' });
      const bFiles = filesUnder(filesDir).filter((f) => f.startsWith(`u${b.user.id}/`));
      expect(bFiles).toHaveLength(1);
      const res = await a.c.delete('/api/auth/account', { confirm: a.user.email });
      expect(res.status).toBe(200);
      expect(filesUnder(filesDir).filter((f) => f.startsWith(`u${a.user.id}/`))).toEqual([]);
      expect(filesUnder(filesDir).filter((f) => f.startsWith(`u${b.user.id}/`))).toEqual(bFiles);
      const rows = await ctx.database.db.select().from(tracks);
      expect(rows.map((r) => r.userId)).toEqual([b.user.id]);
    });

    it('reports storage in the health check', async () => {
      const res = await client(ctx.app).get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, storage: { status: 'ok', kind: 'disk' } });
    });
  },
  { env: { DATA_DIR: dataDir } },
);

describeEachDatabase(
  'tracks quota',
  (ctx) => {
    const wav = wavBytes({ seconds: 0.5 }); // 88,244 bytes; the quota below holds two
    beforeEach(() => fs.rmSync(filesDir, { recursive: true, force: true }));
    it('refuses an upload past the quota with a clear message, leaving nothing', async () => {
      const { c } = await signedUpClient(ctx.app);
      expect((await upload(c, wav)).status).toBe(201);
      expect((await upload(c, wav)).status).toBe(201);
      const before = await snapshot(ctx, filesDir);
      const res = await upload(c, wav);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        message: 'You have used your 1 MB of storage. Delete some tracks or saved sessions to upload more.',
        code: 'storage_quota_exceeded',
      });
      expect(await snapshot(ctx, filesDir)).toEqual(before);
    });

    it('lets only one of two concurrent uploads through when only one fits', async () => {
      const { c } = await signedUpClient(ctx.app);
      expect((await upload(c, wav)).status).toBe(201);
      const results = await Promise.all([upload(c, wav), upload(c, wav), upload(c, wav)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 413, 413]);
      const rows = await ctx.database.db.select().from(tracks);
      expect(rows).toHaveLength(2);
      expect(filesUnder(filesDir).sort()).toEqual(rows.map((r) => r.storageKey).sort());
    });
  },
  // 200 KB: two of the test WAVs fit, a third does not. Message rounds it up to 1 MB.
  { env: { DATA_DIR: dataDir, STORAGE_QUOTA_BYTES: String(200 * 1024) } },
);
