import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TRACK_BYTES } from '../../../shared/api/tracks';
import { MESSAGES } from '../../../shared/messages';
import { tracks } from '../../db/schema';
import { client, describeEachDatabase, signedUpClient } from '../../test/harness';
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
import { fields, snapshot, upload } from './tracks-test-client';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracks-test-'));
const filesDir = path.join(dataDir, 'files');

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
        const before = await snapshot(ctx, filesDir);
        const { payload, headers } = make();
        const res = await c.post('/api/tracks', payload, headers);
        expect(res.status).toBe(status);
        expect(res.body).toMatchObject({ message });
        expect(await snapshot(ctx, filesDir)).toEqual(before);
      },
    );

    it('refuses an upload without a session (401) and stores nothing', async () => {
      const before = await snapshot(ctx, filesDir);
      const res = await upload(client(ctx.app), wav);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: MESSAGES.notSignedIn });
      expect(await snapshot(ctx, filesDir)).toEqual(before);
    });

    it('cuts off a file of 100 MB + 1 byte with 413, and takes one of exactly 100 MB', async () => {
      const { c } = await signedUpClient(ctx.app);
      const before = await snapshot(ctx, filesDir);
      const tooBig = streamedWavUpload(MAX_TRACK_BYTES + 1 - 44, { type: 'vocals', name: 'huge' });
      expect(tooBig.fileBytes).toBe(MAX_TRACK_BYTES + 1);
      const res = await httpUpload(
        `${baseUrl}/api/tracks`,
        { ...tooBig.headers, 'x-auth-token': c.token! },
        tooBig.stream(),
      );
      expect(res).toEqual({ status: 413, body: { message: MESSAGES.fileTooLarge, code: 'file_too_large' } });
      expect(await snapshot(ctx, filesDir)).toEqual(before);

      const exact = streamedWavUpload(MAX_TRACK_BYTES - 44, { type: 'vocals', name: 'exactly 100 MB' });
      const ok = await httpUpload(
        `${baseUrl}/api/tracks`,
        { ...exact.headers, 'x-auth-token': c.token! },
        exact.stream(),
      );
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ size: MAX_TRACK_BYTES });
      await c.delete(`/api/tracks/${(ok.body as { id: number }).id}`);
      expect(await snapshot(ctx, filesDir)).toEqual(before);
    }, 120_000);

    it('leaves no row and no file when the connection drops mid-upload', async () => {
      const { c } = await signedUpClient(ctx.app);
      const before = await snapshot(ctx, filesDir);
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
      await expect.poll(async () => snapshot(ctx, filesDir), { timeout: 10_000 }).toEqual(before);
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
  },
  { env: { DATA_DIR: dataDir } },
);
