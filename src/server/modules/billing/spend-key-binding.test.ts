/**
 * Issue 29, item 1: a spend's idempotency key is bound to its user, type, versions, formats and track. The
 * attack: `{"type":"mastering","idempotencyKey":"K"}` spends a mastering credit, then
 * `{"type":"mix","idempotencyKey":"K"}` answered 200 "(already charged for this download)" and spent no mix
 * credit: a free mix download. Every other body with a used key must now answer 409 and spend nothing; the
 * same body (lists in any order) answers the stored result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { creditLedger } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { multipart, wavBytes } from '../tracks/test-uploads';
import { type Client, expectLedgerMatchesBalances, me, subscribe } from './billing-test-helpers';

const uploadTrack = async (c: Client, type: 'vocals' | 'mixed') => {
  const { payload, headers } = multipart([
    { name: 'audio', filename: 'take.wav', contentType: 'audio/wav', data: wavBytes({ seconds: 0.1 }) },
    { name: 'type', value: type },
    { name: 'name', value: type },
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

describeEachDatabase('spend key bound to its request', (ctx) => {
  const ledgerRows = (userId: number) =>
    ctx.database.db
      .select({ reference: creditLedger.reference, delta: creditLedger.delta })
      .from(creditLedger)
      .where(like(creditLedger.reference, `spend:${userId}:%`));

  it("the issue's attack: a mastering key replayed for a mix answers 409 and the mix credit stays", async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const first = await c.post('/api/spend-credit', { type: 'mastering', idempotencyKey: 'K-attack-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((first.body as { message: string }).message).toBe('Used 1 mastering credit');
    const after = await balances(c);
    expect(after).toMatchObject({ mix: 10, mastering: 9 });

    const reused = await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'K-attack-1' });
    expect(reused.status, JSON.stringify(reused.body)).toBe(409);
    expect(reused.body).toEqual({
      message: BILLING_MESSAGES.spendKeyReused,
      code: 'idempotency_key_reused',
    });
    expect(await balances(c)).toEqual(after);
    expect(await ledgerRows(user.id)).toHaveLength(1);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('a used key with any other type, versions, formats or track: 409 and nothing spent; the same body replays', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const track = await uploadTrack(c, 'mixed');
    const otherTrack = await uploadTrack(c, 'mixed');
    const key = 'K-bound-to-body';
    const body = {
      type: 'mastering',
      idempotencyKey: key,
      versions: ['main', 'instrumental'],
      formats: ['wav', 'mp3'],
      trackId: track,
    };
    const first = await c.post('/api/spend-credit', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const spent = await balances(c);
    expect(spent).toMatchObject({ mastering: 9, mix: 10 });

    const { versions: _v, formats: _f, ...withoutDelivery } = body;
    const { trackId: _t, ...withoutTrack } = body;
    const others: [string, Record<string, unknown>][] = [
      ['type mix', { type: 'mix', idempotencyKey: key, trackId: track }],
      ['type mix, nothing else', { type: 'mix', idempotencyKey: key }],
      ['another version', { ...body, versions: ['main', 'acappella'] }],
      ['one version more', { ...body, versions: ['main', 'instrumental', 'vocal-up'] }],
      ['the Main alone', { ...body, versions: ['main'] }],
      ['another format', { ...body, formats: ['wav', 'flac24'] }],
      ['one format fewer', { ...body, formats: ['wav'] }],
      ['no versions nor formats', withoutDelivery],
      ['another track', { ...body, trackId: otherTrack }],
      ['no track', withoutTrack],
    ];
    for (const [what, other] of others) {
      const res = await c.post('/api/spend-credit', other);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(409);
      expect((res.body as { code: string }).code, what).toBe('idempotency_key_reused');
      expect(await balances(c), what).toEqual(spent);
    }

    // The same download again, lists in another order: the stored answer, nothing more spent.
    const again = await c.post('/api/spend-credit', {
      ...body,
      versions: ['instrumental', 'main'],
      formats: ['mp3', 'wav'],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((again.body as { message: string }).message).toBe(
      'Used 1 mastering credit (already charged for this download)',
    );
    expect(await balances(c)).toEqual(spent);
    const rows = await ctx.database.db
      .select({ request: creditLedger.request, delivered: creditLedger.delivered })
      .from(creditLedger)
      .where(eq(creditLedger.reference, `spend:${user.id}:${key}`));
    expect(rows).toEqual([
      {
        request: { type: 'mastering', trackId: track, versions: body.versions, formats: body.formats },
        delivered: { versions: body.versions, formats: body.formats },
      },
    ]);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('the key is bound to its user: the same key of another user is their own download', async () => {
    const a = await signedUpClient(ctx.app);
    const b = await signedUpClient(ctx.app);
    await subscribe(ctx.app, a.c, 'pro');
    await subscribe(ctx.app, b.c, 'pro');
    expect((await a.c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'K-shared' })).status).toBe(
      200,
    );
    const theirs = await b.c.post('/api/spend-credit', { type: 'mastering', idempotencyKey: 'K-shared' });
    expect(theirs.status).toBe(200);
    expect((theirs.body as { message: string }).message).toBe('Used 1 mastering credit');
    expect(await balances(b.c)).toMatchObject({ mix: 10, mastering: 9 });
  });

  it("a spend naming a stranger's track (or none that exists) is refused before anything is spent", async () => {
    const { c, user } = await signedUpClient(ctx.app);
    const stranger = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const theirs = await uploadTrack(stranger.c, 'mixed');
    const start = await balances(c);
    for (const trackId of [theirs, 2_000_000_000]) {
      const res = await c.post('/api/spend-credit', {
        type: 'mix',
        idempotencyKey: `K-track-${trackId}`,
        trackId,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect((res.body as { message: string }).message).toBe(BILLING_MESSAGES.spendTrackNotFound);
    }
    const bad = await c.post('/api/spend-credit', {
      type: 'mix',
      idempotencyKey: 'K-track-bad',
      trackId: -3,
    });
    expect(bad.status).toBe(400);
    expect(await balances(c)).toEqual(start);
    expect(await ledgerRows(user.id)).toHaveLength(0);
  });

  it('ten requests at once with one key and mixed bodies: one spend; its body answers 200, the others 409', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'unlimited');
    const bodies = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? { type: 'mastering', idempotencyKey: 'K-race-ten' }
        : { type: 'mix', idempotencyKey: 'K-race-ten' },
    );
    const results = await Promise.all(bodies.map((b) => c.post('/api/spend-credit', b)));
    expect(
      results.map((r) => r.status).filter((s) => s !== 200 && s !== 409),
      JSON.stringify(results.map((r) => r.body)),
    ).toEqual([]);
    const [row] = await ctx.database.db
      .select({ request: creditLedger.request })
      .from(creditLedger)
      .where(eq(creditLedger.reference, `spend:${user.id}:K-race-ten`));
    const winner = row?.request?.type;
    expect(winner === 'mix' || winner === 'mastering').toBe(true);
    results.forEach((r, i) => {
      expect(r.status, `request ${i}`).toBe(bodies[i]?.type === winner ? 200 : 409);
    });
    expect((await me(c)).crowns).toBe(34);
    expect(await ledgerRows(user.id)).toHaveLength(1);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('migration 0010 gives spends made before it their request, so their keys are held to it too', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'K-old-mix' })).status).toBe(
      200,
    );
    const versioned = {
      type: 'mastering',
      idempotencyKey: 'K-old-versions',
      versions: ['main'],
      formats: ['wav'],
    };
    expect((await c.post('/api/spend-credit', versioned)).status).toBe(200);
    // As the rows of a database from before the migration were: no request recorded.
    await ctx.database.db.execute(
      sql`update credit_ledger set request = null where reference like ${`spend:${user.id}:%`}`,
    );
    const file = path.resolve('src/server/db/migrations/0010_spend_requests.sql');
    const backfill = fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')[1] ?? '';
    expect(backfill).toContain('UPDATE "credit_ledger"');
    await ctx.database.db.execute(sql.raw(backfill));

    const spent = await balances(c);
    expect((await c.post('/api/spend-credit', { type: 'mix', idempotencyKey: 'K-old-mix' })).status).toBe(
      200,
    );
    expect((await c.post('/api/spend-credit', versioned)).status).toBe(200);
    expect(
      (await c.post('/api/spend-credit', { type: 'mastering', idempotencyKey: 'K-old-mix' })).status,
    ).toBe(409);
    expect((await c.post('/api/spend-credit', { ...versioned, formats: ['mp3'] })).status).toBe(409);
    expect(await balances(c)).toEqual(spent);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });
});
