import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { tracks } from '../../db/schema';
import { s3Storage } from '../../storage/s3-storage';
import { startS3Peer } from '../../storage/s3rver-peer';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { httpUpload, multipart, streamedWavUpload, wavBytes } from './test-uploads';

// A real S3 peer for the whole file: the app under test is built with STORAGE=s3 pointing at it.
const peer = await startS3Peer('tracks-s3-test');
const bucket = s3Storage(peer.options);
afterAll(() => peer.close());

const QUOTA = 20 * 1024 * 1024;

describeEachDatabase(
  'tracks on S3',
  (ctx) => {
    const wav = wavBytes({ seconds: 1 });
    let baseUrl = '';
    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    });

    const uploadWav = (c: Awaited<ReturnType<typeof signedUpClient>>['c'], data = wav) => {
      const { payload, headers } = multipart([
        { name: 'audio', filename: 'v.wav', contentType: 'audio/wav', data },
        { name: 'type', value: 'vocals' },
        { name: 'name', value: 'S3 take' },
      ]);
      return c.post('/api/tracks', payload, headers);
    };

    it('uploads to the bucket, serves ranges from it, and deletes from it', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const before = await bucket.list('');
      const res = await uploadWav(c);
      expect(res.status).toBe(201);
      const { id, audioUrl } = res.body as { id: number; audioUrl: string };
      const [row] = await ctx.database.db.select().from(tracks);
      expect(row!.storageKey).toMatch(new RegExp(`^u${user.id}/`));
      expect(await bucket.list('')).toEqual([...before, row!.storageKey].sort());
      expect(await bucket.stat(row!.storageKey)).toEqual({ size: wav.length });

      const part = await ctx.app.inject({
        url: audioUrl,
        headers: { 'x-auth-token': c.token!, range: 'bytes=1000-1999' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 1000-1999/${wav.length}`);
      expect(part.rawPayload.equals(wav.subarray(1000, 2000))).toBe(true);
      const whole = await ctx.app.inject({ url: audioUrl, headers: { 'x-auth-token': c.token! } });
      expect(whole.rawPayload.equals(wav)).toBe(true);

      expect((await c.delete(`/api/tracks/${id}`)).status).toBe(204);
      expect(await bucket.list('')).toEqual(before);
    });

    it('leaves nothing in the bucket when a file is refused or cut off in the middle of a multipart upload', async () => {
      const { c } = await signedUpClient(ctx.app);
      const before = await bucket.list('');
      const text = await uploadWav(c, Buffer.from('not audio at all, just words '.repeat(100)));
      expect(text.status).toBe(400);
      expect(text.body).toMatchObject({ message: MESSAGES.invalidFileType });

      // 30 MB against a 20 MB quota: parts of 8 MB are already in S3 when the quota stops the stream.
      const big = streamedWavUpload(30 * 1024 * 1024, { type: 'vocals', name: 'too much' });
      const res = await httpUpload(
        `${baseUrl}/api/tracks`,
        { ...big.headers, 'x-auth-token': c.token! },
        big.stream(),
      );
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'storage_quota_exceeded' });
      expect(await bucket.list('')).toEqual(before);
      expect(await ctx.database.db.select().from(tracks)).toEqual([]);
    }, 60_000);

    it("empties the user's folder in the bucket when the account is deleted", async () => {
      const a = await signedUpClient(ctx.app);
      const b = await signedUpClient(ctx.app);
      await uploadWav(a.c);
      await uploadWav(a.c);
      await uploadWav(b.c);
      expect(await bucket.list(`u${a.user.id}/`)).toHaveLength(2);
      expect((await a.c.delete('/api/auth/account', { confirm: a.user.email })).status).toBe(200);
      expect(await bucket.list(`u${a.user.id}/`)).toEqual([]);
      expect(await bucket.list(`u${b.user.id}/`)).toHaveLength(1);
      // Tables restart their ids for the next test; the bucket must too.
      await bucket.deletePrefix(`u${b.user.id}/`);
    });

    it('reports the bucket in the health check', async () => {
      const res = await ctx.app.inject({ url: '/api/health' });
      expect(res.json()).toMatchObject({ ok: true, storage: { status: 'ok', kind: 's3' } });
    });
  },
  { env: { ...peer.env, STORAGE_QUOTA_BYTES: String(QUOTA) } },
);
