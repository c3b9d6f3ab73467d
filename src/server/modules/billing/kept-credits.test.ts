import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { creditLedger } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { type Client, expectLedgerMatchesBalances, me, subscribe } from './billing-test-helpers';

/**
 * Decision 220 (issue 30): credits kept through an upgrade are spent before crowns on every plan. Before,
 * Unlimited spent a crown while the 9 mix and 9 mastering credits the upgrade had promised to keep sat
 * unused.
 */
describeEachDatabase('kept credits before crowns', (ctx) => {
  const spend = (c: Client, type: 'mix' | 'mastering', key: string = crypto.randomUUID()) =>
    c.post('/api/spend-credit', { type, idempotencyKey: key });

  /** A Pro subscriber who spent one of each credit, then upgraded: 9 mix, 9 mastering, 35 crowns. */
  const upgradedFromPro = async () => {
    const s = await signedUpClient(ctx.app);
    await subscribe(ctx.app, s.c, 'pro');
    expect((await spend(s.c, 'mix')).status).toBe(200);
    expect((await spend(s.c, 'mastering')).status).toBe(200);
    const up = await s.c.post('/api/auth/change-subscription', { type: 'upgrade', plan: 'unlimited' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(await me(s.c)).toMatchObject({
      subscriptionType: 'unlimited',
      mixCredits: 9,
      masteringCredits: 9,
      crowns: 35,
    });
    return s;
  };

  const ledgerOf = (userId: number) =>
    ctx.database.db
      .select({ currency: creditLedger.currency, delta: creditLedger.delta, reason: creditLedger.reason })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(asc(creditLedger.id));

  it('Unlimited after an upgrade spends the kept mastering and mix credits, then crowns', async () => {
    const { c, user } = await upgradedFromPro();
    const first = await spend(c, 'mastering');
    expect(first.body).toMatchObject({
      message: 'Used 1 mastering credit',
      user: { masteringCredits: 8, mixCredits: 9, crowns: 35 },
    });
    expect((await spend(c, 'mix')).body).toMatchObject({
      message: 'Used 1 mix credit',
      user: { masteringCredits: 8, mixCredits: 8, crowns: 35 },
    });
    // The remaining eight mastering credits go, then the ninth download takes a crown.
    for (let i = 0; i < 8; i++) expect((await spend(c, 'mastering')).status).toBe(200);
    expect((await spend(c, 'mastering')).body).toMatchObject({
      message: 'Used 1 crown',
      user: { masteringCredits: 0, mixCredits: 8, crowns: 34 },
    });
    const spends = (await ledgerOf(user.id))
      .filter((r) => r.delta < 0)
      .map((r) => `${r.reason}:${r.currency}`);
    expect(spends).toEqual([
      'spend_mix:mix',
      'spend_mastering:mastering',
      'spend_mastering:mastering',
      'spend_mix:mix',
      ...Array(8).fill('spend_mastering:mastering'),
      'spend_mastering:crown',
    ]);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('60 concurrent mastering spends on Unlimited with 9 kept credits: every credit goes before any crown', async () => {
    const { c, user } = await upgradedFromPro();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => spend(c, 'mastering', `kept-race-${i}-of-60`)),
    );
    // 9 credits and 35 crowns: 44 downloads paid, 16 refused.
    expect(results.filter((r) => r.status === 200).length).toBe(44);
    expect(results.filter((r) => r.status === 402).length).toBe(16);
    expect(await me(c)).toMatchObject({ masteringCredits: 0, mixCredits: 9, crowns: 0 });
    // The ledger row is written while the spend holds the user's row, so the ids follow the commit order:
    // no crown was taken while a mastering credit was left.
    const spends = (await ledgerOf(user.id)).filter((r) => r.reason === 'spend_mastering').slice(1);
    expect(spends.map((r) => r.currency)).toEqual([
      ...Array(9).fill('mastering'),
      ...Array(35).fill('crown'),
    ]);
    await expectLedgerMatchesBalances(ctx.database.db, user.id);
  });

  it('a trial user still spends nothing, whatever the balance columns hold', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    const res = await spend(c, 'mastering');
    expect(res.status).toBe(403);
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});
