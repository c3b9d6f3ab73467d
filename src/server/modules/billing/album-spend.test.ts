/**
 * Issue 31 item 5: an album download spends one mastering credit or crown per track, once for the whole
 * album under one key; kept credits before crowns (decision 220); not enough for every track spends nothing;
 * a reused key with another album (or a single download's key) is refused with 409 (issue 29's rule); ten
 * identical requests at once charge once. On PGlite and on PostgreSQL.
 */
import { eq, like, or } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { ALBUM_MESSAGES, BILLING_MESSAGES } from '../../../shared/api/billing';
import { creditLedger } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { multipart, wavBytes } from '../tracks/test-uploads';
import { type Client, expectLedgerMatchesBalances, me, subscribe } from './billing-test-helpers';

const uploadTrack = async (c: Client) => {
  const { payload, headers } = multipart([
    { name: 'audio', filename: 'song.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 0.1 }) },
    { name: 'type', value: 'mixed' },
    { name: 'name', value: 'song' },
    { name: 'duration', value: '0' },
  ]);
  const res = await c.post('/api/tracks', payload, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: number }).id;
};

const balances = async (c: Client) => {
  const u = await me(c);
  return { mix: u.mixCredits, mastering: u.masteringCredits, crowns: u.crowns };
};

const titled = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `Song ${i + 1}` }));
const albumBody = (
  key: string,
  tracks: { trackId?: number; title: string; versions?: string[] }[],
  extra = {},
) => ({
  idempotencyKey: key,
  album: { name: 'First Record', tracks, formats: ['wav', 'mp3'], continuous: true, ...extra },
});

describeEachDatabase('album spend (issue 31)', (ctx) => {
  const ledgerOf = (userId: number) =>
    ctx.database.db
      .select({
        reference: creditLedger.reference,
        currency: creditLedger.currency,
        delta: creditLedger.delta,
        album: creditLedger.album,
      })
      .from(creditLedger)
      .where(
        or(
          like(creditLedger.reference, `spend:${userId}:%`),
          like(creditLedger.reference, `spend-album-crowns:${userId}:%`),
        ),
      );

  it('one credit per track, once; the server records the album it delivered', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const a = await uploadTrack(c);
    const b = await uploadTrack(c);
    const body = albumBody('album-key-1', [
      { trackId: a, title: 'Opening' },
      { title: 'Ballad (an upload)' },
      { trackId: b, title: 'Single' },
    ]);
    const res = await c.post('/api/spend-album', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Used 3 mastering credits', charged: 3 });
    expect(await balances(c)).toEqual({ mix: 10, mastering: 7, crowns: 0 });
    expect(await ledgerOf(user.id)).toEqual([
      {
        reference: `spend:${user.id}:album-key-1`,
        currency: 'mastering',
        delta: -3,
        album: {
          name: 'First Record',
          tracks: [
            { trackId: a, title: 'Opening' },
            { trackId: null, title: 'Ballad (an upload)' },
            { trackId: b, title: 'Single' },
          ],
          formats: ['mp3', 'wav'],
          continuous: true,
          charged: 3,
          masteringCredits: 3,
          crowns: 0,
        },
      },
    ]);
    // The same album again (formats in another order): the stored answer, nothing more spent.
    const again = await c.post('/api/spend-album', {
      ...body,
      album: { ...body.album, formats: ['mp3', 'wav'] },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((again.body as { message: string }).message).toBe(
      'Used 3 mastering credits (already charged for this download)',
    );
    expect(await balances(c)).toEqual({ mix: 10, mastering: 7, crowns: 0 });
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('kept credits first, then crowns; not enough for every track spends nothing', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    expect((await c.post('/api/purchase-crowns', { amount: 3 })).status).toBe(200);
    // 8 of the 10 credits on a first album.
    expect((await c.post('/api/spend-album', albumBody('album-eight', titled(8)))).status).toBe(200);
    expect(await balances(c)).toMatchObject({ mastering: 2, crowns: 3 });

    const tooBig = await c.post('/api/spend-album', albumBody('album-six', titled(6)));
    expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(402);
    expect(tooBig.body).toEqual({ message: ALBUM_MESSAGES.notEnough(6, 5), code: 'no_credits' });
    expect(await balances(c)).toMatchObject({ mastering: 2, crowns: 3 });

    const mixed = await c.post('/api/spend-album', albumBody('album-four', titled(4)));
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect((mixed.body as { message: string }).message).toBe('Used 2 mastering credits and 2 crowns');
    expect(await balances(c)).toEqual({ mix: 10, mastering: 0, crowns: 1 });
    const rows = await ctx.database.db
      .select({ currency: creditLedger.currency, delta: creditLedger.delta })
      .from(creditLedger)
      .where(
        or(
          eq(creditLedger.reference, `spend:${user.id}:album-four`),
          eq(creditLedger.reference, `spend-album-crowns:${user.id}:album-four`),
        ),
      );
    expect(rows.sort((x, y) => x.currency.localeCompare(y.currency))).toEqual([
      { currency: 'crown', delta: -2 },
      { currency: 'mastering', delta: -2 },
    ]);
    // Its replay names both.
    const replay = await c.post('/api/spend-album', albumBody('album-four', titled(4)));
    expect((replay.body as { message: string }).message).toBe(
      'Used 2 mastering credits and 2 crowns (already charged for this download)',
    );
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it("a mix's versions cost nothing more: recorded with the album and bound to its key", async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const body = albumBody('album-versions-key', [
      { title: 'Mix one', versions: ['acappella', 'instrumental'] },
      { title: 'Upload two' },
    ]);
    const res = await c.post('/api/spend-album', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as { charged: number }).charged).toBe(2);
    expect(await balances(c)).toEqual({ mix: 10, mastering: 8, crowns: 0 });
    const [row] = await ledgerOf(user.id);
    expect(row!.album!.tracks).toEqual([
      { trackId: null, title: 'Mix one', versions: ['acappella', 'instrumental'] },
      { trackId: null, title: 'Upload two' },
    ]);
    // The same versions in another order are the same album; other versions under the key are not.
    const same = albumBody('album-versions-key', [
      { title: 'Mix one', versions: ['instrumental', 'acappella'] },
      { title: 'Upload two' },
    ]);
    expect((await c.post('/api/spend-album', same)).status).toBe(200);
    const other = albumBody('album-versions-key', [{ title: 'Mix one' }, { title: 'Upload two' }]);
    expect((await c.post('/api/spend-album', other)).status).toBe(409);
    const unknown = albumBody('album-versions-key-2', [
      { title: 'Mix one', versions: ['karaoke'] },
      { title: 'Upload two' },
    ]);
    expect((await c.post('/api/spend-album', unknown)).status).toBe(400);
    expect(await balances(c)).toEqual({ mix: 10, mastering: 8, crowns: 0 });
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('a used key with any other album, or a single download, answers 409 and spends nothing', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'unlimited');
    const key = 'album-bound-key';
    const tracks = titled(3);
    const body = albumBody(key, tracks);
    expect((await c.post('/api/spend-album', body)).status).toBe(200);
    const spent = await balances(c);
    expect(spent.crowns).toBe(32);
    const others: [string, unknown][] = [
      ['another name', { ...body, album: { ...body.album, name: 'Second Record' } }],
      ['one track fewer', albumBody(key, tracks.slice(0, 2))],
      ['another order', albumBody(key, [tracks[1]!, tracks[0]!, tracks[2]!])],
      ['another format', { ...body, album: { ...body.album, formats: ['wav', 'flac24'] } }],
      ['no continuous file', { ...body, album: { ...body.album, continuous: false } }],
      [
        "a mix's versions besides",
        albumBody(key, [{ ...tracks[0]!, versions: ['instrumental'] }, tracks[1]!, tracks[2]!]),
      ],
      ['a single download', { type: 'mastering', idempotencyKey: key }],
    ];
    for (const [what, other] of others) {
      const url = what === 'a single download' ? '/api/spend-credit' : '/api/spend-album';
      const res = await c.post(url, other);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body, what).toEqual({
        message: BILLING_MESSAGES.spendKeyReused,
        code: 'idempotency_key_reused',
      });
      expect(await balances(c), what).toEqual(spent);
    }
    // A single download's key used for an album: 409 too.
    expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'single-first' })).status).toBe(
      200,
    );
    const crossed = await c.post('/api/spend-album', albumBody('single-first', tracks));
    expect(crossed.status, JSON.stringify(crossed.body)).toBe(409);
    expect((await balances(c)).crowns).toBe(31);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('ten identical requests at once charge once', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const body = albumBody('album-double-click', titled(4));
    const results = await Promise.all(Array.from({ length: 10 }, () => c.post('/api/spend-album', body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await balances(c)).toMatchObject({ mastering: 6 });
    expect(await ledgerOf(user.id)).toHaveLength(1);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('concurrent albums with different keys never overspend', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    expect((await c.post('/api/purchase-crowns', { amount: 5 })).status).toBe(200);
    // 15 to spend; twelve 3-track albums at once: exactly five go through.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        c.post('/api/spend-album', albumBody(`album-race-${i}`, titled(3))),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(7);
    expect(await balances(c)).toEqual({ mix: 10, mastering: 0, crowns: 0 });
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it("refuses a stranger's track, no subscription and a malformed album before spending", async () => {
    const { c, user } = await signedUpClient(ctx.app);
    const stranger = await signedUpClient(ctx.app);
    const theirs = await uploadTrack(stranger.c);
    const noPlan = await c.post('/api/spend-album', albumBody('album-no-plan', titled(2)));
    expect(noPlan.status).toBe(403);
    expect((noPlan.body as { message: string }).message).toBe(BILLING_MESSAGES.subscriptionRequiredMastering);
    await subscribe(ctx.app, c, 'pro');
    const mine = await uploadTrack(c);
    const foreign = await c.post(
      '/api/spend-album',
      albumBody('album-foreign', [
        { trackId: mine, title: 'Mine' },
        { trackId: theirs, title: 'Theirs' },
      ]),
    );
    expect(foreign.status).toBe(404);
    expect((foreign.body as { message: string }).message).toBe(BILLING_MESSAGES.spendTrackNotFound);
    const invalid: [unknown, string][] = [
      [albumBody('album-one', titled(1)), ALBUM_MESSAGES.tracks],
      [albumBody('album-many', titled(21)), ALBUM_MESSAGES.tracks],
      [albumBody('album-name', titled(2), { name: '  ' }), ALBUM_MESSAGES.name],
      [albumBody('album-title', [{ title: 'a' }, { title: '' }]), ALBUM_MESSAGES.title],
      [
        albumBody('album-twice', [
          { trackId: mine, title: 'a' },
          { trackId: mine, title: 'b' },
        ]),
        ALBUM_MESSAGES.repeatedTrack,
      ],
      [
        albumBody('album-format', titled(2), { formats: ['ogg'] }),
        'formats must be some of wav, mp3, wav24, wav32f, flac16, flac24',
      ],
      [albumBody('album-cont', titled(2), { continuous: 'yes' }), ALBUM_MESSAGES.continuous],
      [{ idempotencyKey: 'album-none' }, 'album is required'],
    ];
    for (const [body, message] of invalid) {
      const res = await c.post('/api/spend-album', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect((res.body as { message: string }).message).toBe(message);
    }
    expect(await balances(c)).toEqual({ mix: 10, mastering: 10, crowns: 0 });
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});
