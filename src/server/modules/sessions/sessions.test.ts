import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SessionInput } from '../../../shared/api/sessions';
import { MESSAGES } from '../../../shared/messages';
import { mixerSessions } from '../../db/schema';
import { client, describeEachDatabase, signedUpClient } from '../../test/harness';
import { multipart, wavBytes } from '../tracks/test-uploads';

type Api = Awaited<ReturnType<typeof signedUpClient>>['c'];

const wav = wavBytes({ seconds: 0.2 });

async function uploadTrack(c: Api, type: 'vocals' | 'instrumental'): Promise<number> {
  const { payload, headers } = multipart([
    { name: 'audio', filename: `${type}.wav`, contentType: 'audio/wav', data: wav },
    { name: 'type', value: type },
    { name: 'name', value: type },
    { name: 'duration', value: '0' },
  ]);
  const res = await c.post('/api/tracks', payload, headers);
  if (res.status !== 201) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return (res.body as { id: number }).id;
}

const arrangement = (over: Partial<SessionInput> = {}): SessionInput => ({
  name: 'Friday night take',
  vocalDuration: 12.5,
  instrumentalDuration: 180,
  clips: {
    vocals: [
      { id: 'vocals-clip-1', trackType: 'vocals', startTime: 0, endTime: 4.25, position: 10, selected: true },
      {
        id: 'vocals-clip-2',
        trackType: 'vocals',
        startTime: 4.25,
        endTime: 12.5,
        position: 30.5,
        selected: false,
      },
    ],
    instrumental: [
      {
        id: 'instrumental-clip',
        trackType: 'instrumental',
        startTime: 0,
        endTime: 180,
        position: 0,
        selected: false,
      },
    ],
  },
  style: 'vocals-forward',
  outputVolume: 80,
  genre: 'hiphop',
  ...over,
});

/** Issue 27: the beat's facts after the user typed a tempo, and a pitch correction with a chosen key. */
const songFacts = {
  tempoBpm: 92.5,
  tempoConfidence: 1,
  key: { tonic: 9, mode: 'minor' as const },
  keyConfidence: 0.62,
  downbeatSeconds: 0.41,
  beatsPerBar: 4,
};
const pitch = {
  amount: 85,
  retuneMs: 0,
  humanize: 20,
  key: { tonic: 0, mode: 'major' as const },
  followSongKey: false,
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-test-'));

describeEachDatabase(
  'mixer sessions',
  (ctx) => {
    it('saves, restores, lists, replaces and deletes an arrangement', async () => {
      const { c } = await signedUpClient(ctx.app);
      const vocalTrackId = await uploadTrack(c, 'vocals');
      const instrumentalTrackId = await uploadTrack(c, 'instrumental');
      const created = await c.post('/api/sessions', arrangement({ vocalTrackId, instrumentalTrackId }));
      expect(created.status).toBe(201);
      const saved = created.body as { id: number; updatedAt: string };
      expect(saved).toMatchObject({ ...arrangement(), vocalTrackId, instrumentalTrackId });
      expect(saved.id).toBeGreaterThan(0);

      const restored = await c.get(`/api/sessions/${saved.id}`);
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual(saved);

      const second = (await c.post('/api/sessions', { name: 'Empty start' })).body as { id: number };
      expect(second).toMatchObject({
        name: 'Empty start',
        vocalTrackId: null,
        instrumentalTrackId: null,
        clips: { vocals: [], instrumental: [] },
        style: null,
        outputVolume: 80,
        genre: null,
        songFacts: null,
        pitch: null,
      });
      const list = await c.get('/api/sessions');
      expect(list.body).toMatchObject({
        sessions: [
          { id: second.id, name: 'Empty start' },
          { id: saved.id, name: 'Friday night take', vocalTrackId, instrumentalTrackId },
        ],
        nextCursor: null,
      });
      const paged = await c.get('/api/sessions?limit=1');
      expect(paged.body).toMatchObject({ sessions: [{ id: second.id }], nextCursor: second.id });

      const replaced = await c.put(
        `/api/sessions/${saved.id}`,
        arrangement({ name: 'Renamed', style: 'balanced', outputVolume: 0, vocalTrackId }),
      );
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        name: 'Renamed',
        style: 'balanced',
        outputVolume: 0,
        instrumentalTrackId: null,
      });
      expect(new Date((replaced.body as { updatedAt: string }).updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(saved.updatedAt).getTime(),
      );

      expect((await c.delete(`/api/sessions/${saved.id}`)).status).toBe(204);
      expect((await c.get(`/api/sessions/${saved.id}`)).status).toBe(404);
      expect((await c.delete(`/api/sessions/${saved.id}`)).status).toBe(404);
    });

    it('keeps the song facts and the pitch correction, replaces and clears them (issue 27)', async () => {
      const { c } = await signedUpClient(ctx.app);
      const created = await c.post('/api/sessions', arrangement({ songFacts, pitch }));
      expect(created.status).toBe(201);
      const { id } = created.body as { id: number };
      expect(created.body).toMatchObject({ songFacts, pitch });
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ songFacts, pitch });
      const [row] = await ctx.database.db.select().from(mixerSessions);
      expect(row).toMatchObject({ songFacts, pitch });

      const edited = { ...songFacts, tempoBpm: 140, key: { tonic: 2, mode: 'major' as const } };
      const replaced = await c.put(`/api/sessions/${id}`, arrangement({ songFacts: edited, pitch: null }));
      expect(replaced.status).toBe(200);
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ songFacts: edited, pitch: null });
      // A client that sends neither (an older page) saves none: the session holds what was sent, no more.
      await c.put(`/api/sessions/${id}`, arrangement());
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ songFacts: null, pitch: null });
    });

    it("keeps the vocal chain's manual amounts, replaces and clears them (issue 26, Adjust)", async () => {
      const { c } = await signedUpClient(ctx.app);
      const vocalChain = { cleanup: 0, deEsser: 0.35, unmasking: 0.6 };
      const created = await c.post('/api/sessions', arrangement({ vocalChain }));
      expect(created.status).toBe(201);
      const { id } = created.body as { id: number };
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ vocalChain });
      const [row] = await ctx.database.db.select().from(mixerSessions);
      expect(row?.vocalChain).toEqual(vocalChain);

      await c.put(`/api/sessions/${id}`, arrangement({ vocalChain: { space: 1 } }));
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ vocalChain: { space: 1 } });
      await c.put(`/api/sessions/${id}`, arrangement());
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({ vocalChain: null });
    });

    it('loads a session saved before the amounts existed with none (every stage as planned)', async () => {
      const { c, user } = await signedUpClient(ctx.app);
      // The row as a page from before issue 26's Adjust saved it: the column left to its default.
      const [old] = await ctx.database.db
        .insert(mixerSessions)
        .values({ userId: user.id, name: 'Old take', clips: { vocals: [], instrumental: [] } })
        .returning();
      const res = await c.get(`/api/sessions/${old!.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Old take', vocalChain: null, pitch: null });
    });

    it('keeps a session when one of its tracks is deleted, without the track', async () => {
      const { c } = await signedUpClient(ctx.app);
      const vocalTrackId = await uploadTrack(c, 'vocals');
      const { id } = (await c.post('/api/sessions', arrangement({ vocalTrackId }))).body as { id: number };
      expect((await c.delete(`/api/tracks/${vocalTrackId}`)).status).toBe(204);
      expect((await c.get(`/api/sessions/${id}`)).body).toMatchObject({
        vocalTrackId: null,
        name: 'Friday night take',
      });
    });

    const clip = (over: Record<string, unknown>) => ({
      id: 'vocals-clip-1',
      trackType: 'vocals',
      startTime: 0,
      endTime: 4,
      position: 0,
      selected: false,
      ...over,
    });
    it.each([
      [
        'a clip ending after its source',
        { clips: { vocals: [clip({ endTime: 12.6 })] } },
        'Clip vocals-clip-1 ends at 12.6 s, after the end of its vocals source (12.5 s)',
      ],
      [
        'a clip before the start of its source',
        { clips: { vocals: [clip({ startTime: -0.5 })] } },
        'Clip start must not be negative',
      ],
      [
        'a clip that ends before it starts',
        { clips: { vocals: [clip({ startTime: 5, endTime: 4 })] } },
        'A clip must end after it starts',
      ],
      [
        'a negative timeline position',
        { clips: { vocals: [clip({ position: -1 })] } },
        'Clip position must not be negative',
      ],
      [
        'an instrumental clip in the vocal list',
        { clips: { vocals: [clip({ trackType: 'instrumental' })] } },
        'Clip vocals-clip-1 is listed under vocals but its trackType is instrumental',
      ],
      [
        'a clip on a source of unknown length',
        { vocalDuration: 0, clips: { vocals: [clip({})] } },
        'Clip vocals-clip-1 ends at 4 s, after the end of its vocals source (0 s)',
      ],
      [
        'a clip time that is not a number',
        { clips: { vocals: [clip({ endTime: '4' })] } },
        'Clip end must be a number of seconds',
      ],
      [
        'an output volume over 100',
        { outputVolume: 101 },
        'Output volume must be a whole number from 0 to 100',
      ],
      [
        'a fractional output volume',
        { outputVolume: 50.5 },
        'Output volume must be a whole number from 0 to 100',
      ],
      ['an unknown style', { style: 'loud' }, 'Invalid option'],
      ['an unknown genre', { genre: 'polka' }, 'Unknown genre'],
      ['an empty name', { name: '  ' }, 'Please give the session a name'],
      [
        'a tempo over 300 BPM',
        { songFacts: { ...songFacts, tempoBpm: 301 } },
        'Song facts: tempoBpm must be at most 300',
      ],
      [
        'a tempo under 30 BPM',
        { songFacts: { ...songFacts, tempoBpm: 12 } },
        'Song facts: tempoBpm must be at least 30',
      ],
      [
        'a tempo that is not a number',
        { songFacts: { ...songFacts, tempoBpm: '96' } },
        'Song facts: tempoBpm must be a number',
      ],
      [
        'a tonic outside 0..11',
        { songFacts: { ...songFacts, key: { tonic: 12, mode: 'minor' } } },
        'Song facts: key.tonic must be at most 11',
      ],
      [
        'a fractional tonic',
        { songFacts: { ...songFacts, key: { tonic: 1.5, mode: 'minor' } } },
        'Song facts: key.tonic must be a whole number',
      ],
      [
        'an unknown mode',
        { songFacts: { ...songFacts, key: { tonic: 1, mode: 'dorian' } } },
        'Song facts: key.mode must be one of major, minor',
      ],
      [
        'a confidence over 1',
        { songFacts: { ...songFacts, keyConfidence: 1.5 } },
        'Song facts: keyConfidence must be at most 1',
      ],
      [
        'one beat to the bar',
        { songFacts: { ...songFacts, beatsPerBar: 1 } },
        'Song facts: beatsPerBar must be at least 2',
      ],
      [
        'song facts without a grid',
        { songFacts: { ...songFacts, downbeatSeconds: undefined } },
        'Song facts: downbeatSeconds must be a number',
      ],
      ['song facts that are not an object', { songFacts: 96 }, 'Song facts must be an object'],
      [
        'a pitch amount over 100',
        { pitch: { ...pitch, amount: 101 } },
        'Pitch correction: amount must be at most 100',
      ],
      [
        'a negative retune speed',
        { pitch: { ...pitch, retuneMs: -1 } },
        'Pitch correction: retuneMs must be at least 0',
      ],
      [
        'a retune speed over 400 ms',
        { pitch: { ...pitch, retuneMs: 401 } },
        'Pitch correction: retuneMs must be at most 400',
      ],
      [
        'a humanize under 0',
        { pitch: { ...pitch, humanize: -5 } },
        'Pitch correction: humanize must be at least 0',
      ],
      [
        'a pitch key outside 0..11',
        { pitch: { ...pitch, key: { tonic: -1, mode: 'major' } } },
        'Pitch correction: key.tonic must be at least 0',
      ],
      [
        'a pitch setting that is not a flag',
        { pitch: { ...pitch, followSongKey: 'yes' } },
        'Pitch correction: followSongKey must be a boolean',
      ],
      [
        'a vocal chain amount over 1',
        { vocalChain: { cleanup: 1.5 } },
        'Vocal chain: cleanup must be at most 1',
      ],
      [
        'a negative vocal chain amount',
        { vocalChain: { space: -0.1 } },
        'Vocal chain: space must be at least 0',
      ],
      [
        'a vocal chain amount that is not a number',
        { vocalChain: { riding: '50' } },
        'Vocal chain: riding must be a number',
      ],
      [
        'a vocal chain stage nobody has',
        { vocalChain: { reverb: 0, cleanup: 0 } },
        'Vocal chain has unknown keys: reverb',
      ],
      ['a vocal chain that is not an object', { vocalChain: [0.5] }, 'Vocal chain must be an object'],
      ['a malformed track id', { vocalTrackId: 'abc' }, MESSAGES.invalidTrackId],
      ['a track id nobody has', { vocalTrackId: 424242 }, MESSAGES.invalidTrackId],
    ])('refuses %s with 400', async (_label, over, message) => {
      const { c } = await signedUpClient(ctx.app);
      const res = await c.post('/api/sessions', { ...arrangement(), ...over });
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain(message);
      expect(await ctx.database.db.select().from(mixerSessions)).toEqual([]);
    });

    it('gives another user 404 for a session and refuses their tracks in one; signed-out callers get 401', async () => {
      const a = await signedUpClient(ctx.app);
      const b = await signedUpClient(ctx.app);
      const aTrack = await uploadTrack(a.c, 'vocals');
      const { id } = (await a.c.post('/api/sessions', arrangement())).body as { id: number };
      expect((await b.c.get(`/api/sessions/${id}`)).status).toBe(404);
      expect((await b.c.put(`/api/sessions/${id}`, arrangement({ name: 'hijack' }))).status).toBe(404);
      expect((await b.c.delete(`/api/sessions/${id}`)).status).toBe(404);
      expect(((await b.c.get('/api/sessions')).body as { sessions: unknown[] }).sessions).toEqual([]);
      const borrowing = await b.c.post('/api/sessions', arrangement({ vocalTrackId: aTrack }));
      expect(borrowing.status).toBe(400);
      expect(borrowing.body).toMatchObject({ message: MESSAGES.invalidTrackId });
      expect((await a.c.get(`/api/sessions/${id}`)).body).toMatchObject({ name: 'Friday night take' });

      const anon = client(ctx.app);
      expect((await anon.get('/api/sessions')).status).toBe(401);
      expect((await anon.get(`/api/sessions/${id}`)).status).toBe(401);
      expect((await anon.post('/api/sessions', arrangement())).status).toBe(401);
      expect((await anon.put(`/api/sessions/${id}`, arrangement())).status).toBe(401);
      expect((await anon.delete(`/api/sessions/${id}`)).status).toBe(401);
    });

    it.each(['abc', '0', '-2', '2.5'])('answers 400 Invalid session ID for %j', async (bad) => {
      const { c } = await signedUpClient(ctx.app);
      const res = await c.get(`/api/sessions/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Invalid session ID' });
    });
  },
  { env: { DATA_DIR: dataDir } },
);
