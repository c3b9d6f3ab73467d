/**
 * Issue 18 on the server: a mixed track carries its arrangement (validated, naming only the uploader's own
 * source tracks), and a mastering download's one spend records the versions and formats it delivered,
 * refusing unknown ones without charging.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { DELIVERY_MESSAGES } from '../../../shared/api/billing';
import { ARRANGEMENT_MESSAGES, type MixArrangement } from '../../../shared/api/tracks';
import { creditLedger } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { type Client, me, subscribe } from '../billing/billing-test-helpers';
import { multipart, wavBytes } from './test-uploads';

const wav = wavBytes({ seconds: 0.2 });

const upload = (c: Client, type: string, arrangement?: unknown) => {
  const parts = [
    { name: 'audio', filename: `${type}.wav`, contentType: 'audio/wav', data: wav },
    { name: 'type', value: type },
    { name: 'name', value: type === 'mixed' ? 'Final Mix' : type },
    { name: 'duration', value: '0' },
    ...(arrangement === undefined
      ? []
      : [
          {
            name: 'arrangement',
            value: typeof arrangement === 'string' ? arrangement : JSON.stringify(arrangement),
          },
        ]),
  ];
  const { payload, headers } = multipart(parts);
  return c.post('/api/tracks', payload, headers);
};

const arrangementOf = (vocalTrackId: number, instrumentalTrackId: number): MixArrangement => ({
  vocalTrackId,
  instrumentalTrackId,
  sampleRate: 48_000,
  length: 48_000 * 60,
  vocalShare: 75,
  outputVolume: 80,
  clips: [
    { id: 'vocals-clip-1', trackType: 'vocals', sourceStart: 0, sourceEnd: 24_000, position: 4_800 },
    { id: 'instrumental-clip', trackType: 'instrumental', sourceStart: 0, sourceEnd: 96_000, position: 0 },
  ],
});

describeEachDatabase('mix versions', (ctx) => {
  const sources = async (c: Client) => {
    const v = await upload(c, 'vocals');
    const i = await upload(c, 'instrumental');
    expect(v.status).toBe(201);
    expect(i.status).toBe(201);
    return { vocals: (v.body as { id: number }).id, instrumental: (i.body as { id: number }).id };
  };

  it('stores a mixed track with its arrangement and gives it back; a single-file track has none', async () => {
    const { c } = await signedUpClient(ctx.app);
    const ids = await sources(c);
    // Issue 26: the genre the mix was made for travels with it (the mastering page's default).
    const arrangement: MixArrangement = { ...arrangementOf(ids.vocals, ids.instrumental), genre: 'rnb' };
    const res = await upload(c, 'mixed', arrangement);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = (res.body as { id: number }).id;
    const got = await c.get(`/api/tracks/${id}`);
    expect(got.status).toBe(200);
    expect((got.body as { arrangement: unknown }).arrangement).toEqual(arrangement);
    const plain = await upload(c, 'mixed');
    const plainView = await c.get(`/api/tracks/${(plain.body as { id: number }).id}`);
    expect((plainView.body as { arrangement: unknown }).arrangement).toBeNull();
  });

  it("refuses an arrangement naming someone else's tracks, the wrong types, or bad JSON, storing nothing", async () => {
    const { c } = await signedUpClient(ctx.app);
    const other = await signedUpClient(ctx.app);
    const mine = await sources(c);
    const theirs = await sources(other.c);
    const cases: [unknown, string][] = [
      [arrangementOf(theirs.vocals, mine.instrumental), ARRANGEMENT_MESSAGES.sources],
      [arrangementOf(mine.instrumental, mine.vocals), ARRANGEMENT_MESSAGES.sources],
      ['{"vocalTrackId": 1,', ARRANGEMENT_MESSAGES.invalid],
      [{ ...arrangementOf(mine.vocals, mine.instrumental), outputVolume: 101 }, ARRANGEMENT_MESSAGES.invalid],
      [{ ...arrangementOf(mine.vocals, mine.instrumental), genre: 'polka' }, ARRANGEMENT_MESSAGES.invalid],
      [
        {
          ...arrangementOf(mine.vocals, mine.instrumental),
          clips: [{ id: 'x', trackType: 'vocals', sourceStart: 10, sourceEnd: 10, position: 0 }],
        },
        ARRANGEMENT_MESSAGES.invalid,
      ],
    ];
    const before = ((await c.get('/api/tracks')).body as { tracks: unknown[] }).tracks.length;
    for (const [arrangement, message] of cases) {
      const res = await upload(c, 'mixed', arrangement);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect((res.body as { message: string }).message).toBe(message);
    }
    const onVocals = await upload(c, 'vocals', arrangementOf(mine.vocals, mine.instrumental));
    expect(onVocals.status).toBe(400);
    expect((onVocals.body as { message: string }).message).toBe(ARRANGEMENT_MESSAGES.onlyMixed);
    expect(((await c.get('/api/tracks')).body as { tracks: unknown[] }).tracks.length).toBe(before);
  });

  it('spends one credit for all versions and formats, records them, and replays a retry', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const start = (await me(c)).masteringCredits as number;
    const body = {
      type: 'mastering',
      idempotencyKey: 'versions-download-1',
      versions: ['main', 'instrumental', 'acappella', 'vocal-up', 'vocal-down'],
      formats: ['wav', 'mp3'],
    };
    const first = await c.post('/api/spend-credit', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await c.post('/api/spend-credit', body);
    expect(again.status).toBe(200);
    expect((await me(c)).masteringCredits).toBe(start - 1);
    const rows = await ctx.database.db
      .select({ delivered: creditLedger.delivered, delta: creditLedger.delta })
      .from(creditLedger)
      .where(eq(creditLedger.reference, `spend:${user.id}:versions-download-1`));
    expect(rows).toEqual([{ delta: -1, delivered: { versions: body.versions, formats: body.formats } }]);
  });

  it('refuses unknown or repeated versions and versions on a mix download, without charging', async () => {
    const { c } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const start = await me(c);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'mastering', versions: ['main', 'karaoke'] }, DELIVERY_MESSAGES.unknownVersion],
      [{ type: 'mastering', versions: ['main', 'main'] }, DELIVERY_MESSAGES.repeated],
      [{ type: 'mastering', versions: [] }, DELIVERY_MESSAGES.unknownVersion],
      [{ type: 'mastering', formats: ['exe'] }, DELIVERY_MESSAGES.unknownFormat],
      [{ type: 'mix', versions: ['main'] }, DELIVERY_MESSAGES.onlyMastering],
    ];
    for (const [extra, message] of cases) {
      const res = await c.post('/api/spend-credit', { idempotencyKey: crypto.randomUUID(), ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect((res.body as { message: string }).message).toBe(message);
    }
    const end = await me(c);
    expect([end.masteringCredits, end.mixCredits, end.crowns]).toEqual([
      start.masteringCredits,
      start.mixCredits,
      start.crowns,
    ]);
  });
});
