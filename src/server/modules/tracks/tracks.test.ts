import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { asc } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TRACK_BYTES } from '../../../shared/api/tracks';
import { MESSAGES } from '../../../shared/messages';
import { mixerSessions, tracks } from '../../db/schema';
import { client, describeEachDatabase, signedUpClient, type TestContext } from '../../test/harness';
import {
  encode,
  encodeStudio,
  ffmpegMissing,
  filesUnder,
  httpUpload,
  id3Header,
  multipart,
  streamedWavUpload,
  wavBytes,
} from './test-uploads';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracks-test-'));
const filesDir = path.join(dataDir, 'files');

type Api = Awaited<ReturnType<typeof signedUpClient>>['c'];

const fields = (o: Partial<Record<'type' | 'name' | 'duration', string>> = {}) =>
  Object.entries({ type: 'vocals', name: 'Lead vocal', duration: '0', ...o }).map(([name, value]) => ({
    name,
    value,
  }));

/** The mixer's order: the file first, then type, name, duration. */
const upload = (
  c: Api | ReturnType<typeof client>,
  data: Buffer,
  opts: {
    filename?: string;
    contentType?: string;
    field?: Partial<Record<'type' | 'name' | 'duration', string>>;
  } = {},
) => {
  const { payload, headers } = multipart([
    {
      name: 'audio',
      filename: opts.filename ?? 'take.wav',
      contentType: opts.contentType ?? 'audio/wav',
      data,
    },
    ...fields(opts.field),
  ]);
  return c.post('/api/tracks', payload, headers);
};

async function snapshot(ctx: TestContext) {
  const rows = await ctx.database.db
    .select({ id: tracks.id, key: tracks.storageKey, size: tracks.sizeBytes })
    .from(tracks)
    .orderBy(asc(tracks.id));
  const sessions = await ctx.database.db.select({ id: mixerSessions.id }).from(mixerSessions);
  return { rows, sessions: sessions.length, files: filesUnder(filesDir) };
}

describeEachDatabase(
  'tracks',
  (ctx) => {
    const wav = wavBytes({ seconds: 0.5 });
    let baseUrl = '';
    // The harness empties the tables before each test; the storage folder starts empty alongside them.
    beforeEach(() => fs.rmSync(filesDir, { recursive: true, force: true }));
    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    });

    it('stores a generated WAV and answers with a positive id, serving the same bytes back', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const before = filesUnder(filesDir);
      // The browser's Content-Type and the file name say nothing true: the bytes decide.
      const res = await upload(c, wav, { filename: 'notes.txt', contentType: 'application/octet-stream' });
      expect(res.status).toBe(201);
      const body = res.body as Record<string, unknown>;
      expect(body).toMatchObject({
        name: 'Lead vocal',
        type: 'vocals',
        contentType: 'audio/wav',
        size: wav.length,
        audioUrl: `/api/tracks/${body.id}/audio`,
      });
      expect(Number.isInteger(body.id) && (body.id as number) > 0).toBe(true);
      expect(new Date(body.createdAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const added = filesUnder(filesDir).filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(new RegExp(`^u${user.id}/[0-9a-f-]{36}$`));
      expect(fs.readFileSync(path.join(filesDir, added[0]!)).equals(wav)).toBe(true);

      const got = await c.get(`/api/tracks/${body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        id: body.id,
        name: 'Lead vocal',
        type: 'vocals',
        audioUrl: body.audioUrl,
      });
      const audio = await ctx.app.inject({
        url: body.audioUrl as string,
        headers: { 'x-auth-token': c.token! },
      });
      expect(audio.statusCode).toBe(200);
      expect(audio.rawPayload.equals(wav)).toBe(true);
    });

    describe.skipIf(Boolean(ffmpegMissing()))(`ffmpeg-encoded uploads ${ffmpegMissing()}`, () => {
      it.each([
        ['mp3', 'audio/mpeg', 'instrumental'],
        ['ogg', 'audio/ogg', 'mixed'],
      ] as const)('recognises a real %s file as %s', async (format, contentType, type) => {
        const { c } = await signedUpClient(ctx.app);
        const data = encode(wavBytes({ seconds: 1 }), format);
        const res = await upload(c, data, {
          filename: `beat.${format}`,
          contentType: 'audio/wav',
          field: { type },
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ contentType, type, size: data.length });
        const id = (res.body as { id: number }).id;
        const audio = await ctx.app.inject({
          url: `/api/tracks/${id}/audio`,
          headers: { 'x-auth-token': c.token! },
        });
        expect(audio.headers['content-type']).toBe(contentType);
        expect(audio.rawPayload.equals(data)).toBe(true);
      });

      it.each([
        ['flac', 'audio/flac'],
        ['aiff', 'audio/aiff'],
        ['aifc', 'audio/aiff'],
        ['m4a', 'audio/mp4'],
        ['aac', 'audio/aac'],
      ] as const)(
        'accepts a real %s upload as %s (issue 19) and serves it back unchanged',
        async (format, contentType) => {
          const { c } = await signedUpClient(ctx.app);
          const data = encodeStudio(wavBytes({ seconds: 1 }), format);
          const res = await upload(c, data, {
            filename: `take.${format}`,
            contentType: 'application/octet-stream',
          });
          expect(res.status).toBe(201);
          expect(res.body).toMatchObject({ contentType, size: data.length });
          const audio = await ctx.app.inject({
            url: `/api/tracks/${(res.body as { id: number }).id}/audio`,
            headers: { 'x-auth-token': c.token! },
          });
          expect(audio.headers['content-type']).toBe(contentType);
          expect(audio.rawPayload.equals(data)).toBe(true);
        },
      );
    });

    it('keeps the final mix the way the mixer sends it (final_mix.wav, type mixed, name Final Mix)', async () => {
      const { c } = await signedUpClient(ctx.app);
      const res = await upload(c, wav, {
        filename: 'final_mix.wav',
        field: { type: 'mixed', name: 'Final Mix' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'mixed', name: 'Final Mix' });
    });

    const text = Buffer.from('These are my lyrics, not audio at all.\n'.repeat(20));
    const html = Buffer.from(
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    );
    const js = Buffer.from('fetch("/api/auth/account",{method:"DELETE"});\n');
    const badUploads: Array<
      [string, () => { payload: Buffer; headers: Record<string, string> }, number, string]
    > = [
      [
        'a zero-byte file',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: Buffer.alloc(0) },
            ...fields(),
          ]),
        400,
        // Spelled out: the text names every accepted format (issue 29), not only the spec's three.
        'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file',
      ],
      [
        'a text file renamed .wav',
        () =>
          multipart([
            { name: 'audio', filename: 'lyrics.wav', contentType: 'audio/wav', data: text },
            ...fields(),
          ]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'an HTML file sent as audio/mpeg',
        () =>
          multipart([
            { name: 'audio', filename: 'x.mp3', contentType: 'audio/mpeg', data: html },
            ...fields(),
          ]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'a JS file sent as audio/ogg',
        () =>
          multipart([{ name: 'audio', filename: 'x.ogg', contentType: 'audio/ogg', data: js }, ...fields()]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'an HTML file behind an ID3 tag claiming 300 KB',
        () =>
          multipart([
            {
              name: 'audio',
              filename: 'x.mp3',
              contentType: 'audio/mpeg',
              data: Buffer.concat([id3Header(300 * 1024), Buffer.alloc(300 * 1024, 0x41), html]),
            },
            ...fields(),
          ]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'a WAV cut inside its fmt chunk',
        () =>
          multipart([
            { name: 'audio', filename: 'cut.wav', contentType: 'audio/wav', data: wav.subarray(0, 30) },
            ...fields(),
          ]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'a WAV header with no data chunk',
        () =>
          multipart([
            { name: 'audio', filename: 'cut.wav', contentType: 'audio/wav', data: wav.subarray(0, 36) },
            ...fields(),
          ]),
        400,
        MESSAGES.invalidFileType,
      ],
      [
        'a path-traversal file name',
        () =>
          multipart([
            { name: 'audio', filename: '../../../etc/cron.d/evil.wav', contentType: 'audio/wav', data: wav },
            ...fields(),
          ]),
        400,
        'Please upload a file whose name has no folder path in it',
      ],
      [
        'a Windows path file name',
        () =>
          multipart([
            { name: 'audio', filename: '..\\..\\boot.ini', contentType: 'audio/wav', data: wav },
            ...fields(),
          ]),
        400,
        'Please upload a file whose name has no folder path in it',
      ],
      ['no file at all', () => multipart(fields()), 400, 'Please choose an audio file to upload'],
      [
        'the file in another field',
        () =>
          multipart([{ name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: wav }, ...fields()]),
        400,
        'Please upload one audio file, in the "audio" field',
      ],
      [
        'two files',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            { name: 'audio', filename: 'b.wav', contentType: 'audio/wav', data: wav },
            ...fields(),
          ]),
        400,
        'Please upload one audio file, in the "audio" field',
      ],
      [
        'a missing type field',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            { name: 'name', value: 'x' },
          ]),
        400,
        'Track type must be vocals, instrumental or mixed',
      ],
      [
        'a wrong type value',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            ...fields({ type: 'drums' }),
          ]),
        400,
        'Track type must be vocals, instrumental or mixed',
      ],
      [
        'a wrong type value sent before the file',
        () =>
          multipart([
            ...fields({ type: 'acapella' }),
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
          ]),
        400,
        'Track type must be vocals, instrumental or mixed',
      ],
      [
        'a missing name field',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            { name: 'type', value: 'vocals' },
          ]),
        400,
        'Please give the track a name',
      ],
      [
        'a negative duration',
        () =>
          multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            ...fields({ duration: '-3' }),
          ]),
        400,
        'Duration must be a number of seconds',
      ],
      [
        'a form without a boundary',
        () => ({ payload: Buffer.from('whatever'), headers: { 'content-type': 'multipart/form-data' } }),
        400,
        'The upload form is malformed',
      ],
      [
        'a form cut off before its closing boundary',
        () => {
          const { payload, headers } = multipart([
            { name: 'audio', filename: 'a.wav', contentType: 'audio/wav', data: wav },
            ...fields(),
          ]);
          return { payload: payload.subarray(0, 5000), headers };
        },
        400,
        'The upload form is malformed',
      ],
      [
        'a JSON body instead of a form',
        () => ({
          payload: Buffer.from('{"type":"vocals"}'),
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'Please upload the track as multipart/form-data',
      ],
    ];

    it.each(badUploads)(
      'refuses %s and leaves the database and the storage folder as they were',
      async (_label, make, status, message) => {
        const { c } = await signedUpClient(ctx.app);
        expect((await upload(c, wav)).status).toBe(201); // something already there, which must stay
        const before = await snapshot(ctx);
        const { payload, headers } = make();
        const res = await c.post('/api/tracks', payload, headers);
        expect(res.status).toBe(status);
        expect(res.body).toMatchObject({ message });
        expect(await snapshot(ctx)).toEqual(before);
      },
    );

    it('refuses an upload without a session (401) and stores nothing', async () => {
      const before = await snapshot(ctx);
      const res = await upload(client(ctx.app), wav);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: MESSAGES.notSignedIn });
      expect(await snapshot(ctx)).toEqual(before);
    });

    it('cuts off a file of 100 MB + 1 byte with 413, and takes one of exactly 100 MB', async () => {
      const { c } = await signedUpClient(ctx.app);
      const before = await snapshot(ctx);
      const tooBig = streamedWavUpload(MAX_TRACK_BYTES + 1 - 44, { type: 'vocals', name: 'huge' });
      expect(tooBig.fileBytes).toBe(MAX_TRACK_BYTES + 1);
      const res = await httpUpload(
        `${baseUrl}/api/tracks`,
        { ...tooBig.headers, 'x-auth-token': c.token! },
        tooBig.stream(),
      );
      expect(res).toEqual({ status: 413, body: { message: MESSAGES.fileTooLarge, code: 'file_too_large' } });
      expect(await snapshot(ctx)).toEqual(before);

      const exact = streamedWavUpload(MAX_TRACK_BYTES - 44, { type: 'vocals', name: 'exactly 100 MB' });
      const ok = await httpUpload(
        `${baseUrl}/api/tracks`,
        { ...exact.headers, 'x-auth-token': c.token! },
        exact.stream(),
      );
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ size: MAX_TRACK_BYTES });
      await c.delete(`/api/tracks/${(ok.body as { id: number }).id}`);
      expect(await snapshot(ctx)).toEqual(before);
    }, 120_000);

    it('leaves no row and no file when the connection drops mid-upload', async () => {
      const { c } = await signedUpClient(ctx.app);
      const before = await snapshot(ctx);
      const big = streamedWavUpload(50 * 1024 * 1024, { type: 'vocals', name: 'dropped' });
      const req = http.request(`${baseUrl}/api/tracks`, {
        method: 'POST',
        headers: { ...big.headers, 'x-auth-token': c.token! },
      });
      req.on('error', () => {}); // the reset we cause ourselves
      const source = big.stream();
      let sent = 0;
      source.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (!req.write(chunk)) source.pause();
        if (sent > 8 * 1024 * 1024) source.pause();
      });
      req.on('drain', () => sent <= 8 * 1024 * 1024 && source.resume());
      // The upload is really under way: a partial object exists (set aside, not yet an object).
      await expect
        .poll(() => filesUnder(filesDir).filter((f) => f.startsWith('.incoming/')).length, {
          timeout: 10_000,
        })
        .toBe(1);
      req.destroy();
      source.destroy();
      await expect.poll(async () => snapshot(ctx), { timeout: 10_000 }).toEqual(before);
    });

    it('answers a clear 401 and keeps nothing when the account is deleted during the upload', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      const big = streamedWavUpload(8 * 1024 * 1024, { type: 'vocals', name: 'orphaned' });
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      // The first 2 MB go at once; the rest only once the account is gone.
      async function* gated() {
        let sent = 0;
        for await (const chunk of big.stream()) {
          if (sent > 2 * 1024 * 1024) await released;
          sent += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      }
      const answer = httpUpload(
        `${baseUrl}/api/tracks`,
        { ...big.headers, 'x-auth-token': c.token! },
        Readable.from(gated(), { objectMode: false }),
      );
      await expect
        .poll(() => filesUnder(filesDir).filter((f) => f.startsWith('.incoming/')).length, {
          timeout: 10_000,
        })
        .toBe(1);
      const deleted = await c.delete('/api/auth/account', { confirm: user.email });
      expect(deleted.status).toBe(200);
      release();
      expect(await answer).toEqual({
        status: 401,
        body: { message: MESSAGES.accountGoneDuringUpload, code: 'account_deleted' },
      });
      expect(await ctx.database.db.select().from(tracks)).toEqual([]);
      expect(filesUnder(filesDir)).toEqual([]);
    });

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
      const before = await snapshot(ctx);
      const res = await upload(c, wav);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        message: 'You have used your 1 MB of storage. Delete some tracks or saved sessions to upload more.',
        code: 'storage_quota_exceeded',
      });
      expect(await snapshot(ctx)).toEqual(before);
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
