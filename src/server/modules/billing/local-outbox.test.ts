import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { localOutbox, localPayments, payments, users } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { expectLedgerMatchesBalances, me, rowsOf, subscribe } from './billing-test-helpers';
import { createFulfilment } from './fulfilment';
import { createLocalOutbox, OUTBOX_RETENTION_MS } from './local-outbox';
import { createLocalProvider, type LocalProvider } from './local-provider';
import type { ProviderEvent } from './payment-provider';

describeEachDatabase('local provider outbox', (ctx) => {
  const pending = async () =>
    (
      await rowsOf<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from local_outbox where delivered_at is null`,
      )
    )[0]!.n;

  it('a delivery that failed stays in the outbox; the sweep applies it once, however often it runs', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'pro');
    const db = ctx.database.db;
    const fulfilment = createFulfilment(db);
    let failNext = true;
    const applied: string[] = [];
    const local: LocalProvider = createLocalProvider({
      db,
      publicOrigin: 'http://app.test',
      deliver: async (event: ProviderEvent) => {
        if (failNext) {
          failNext = false;
          throw new Error('fulfilment unreachable');
        }
        applied.push(await fulfilment.applyEvent(local, event));
      },
    });
    const [row] = await db.select().from(users).where(eq(users.id, user.id));

    // The provider took the money and wrote its event in one transaction; the delivery failed after.
    await expect(local.chargeCrowns(row!, 5, 250, `crowns:${user.id}:outbox-test`)).rejects.toThrow(
      'fulfilment unreachable',
    );
    expect((await db.select().from(localPayments).where(eq(localPayments.kind, 'crowns'))).length).toBe(1);
    expect(await me(c)).toMatchObject({ crowns: 0 });
    expect(await pending()).toBe(1);

    // The periodic sweep leaves young events to their request; the start-up sweep takes them all.
    expect(await local.outbox.sweep(60_000)).toBe(0);
    expect(await local.outbox.sweep()).toBe(1);
    expect(await local.outbox.sweep()).toBe(0);
    expect(await pending()).toBe(0);
    expect(await me(c)).toMatchObject({ crowns: 5 });

    // Delivered again anyway (two processes sweeping at once): the event id is applied once.
    const [event] = await rowsOf<{ event: ProviderEvent }>(db, sql`select event from local_outbox`);
    applied.length = 0;
    await local.outbox.flush([event!.event]);
    expect(applied).toEqual(['duplicate']);
    expect(await me(c)).toMatchObject({ crowns: 5 });
    expect(
      (await db.select().from(payments).where(eq(payments.userId, user.id))).map((p) => p.kind).sort(),
    ).toEqual(['crowns', 'subscription_create']);
    await expectLedgerMatchesBalances(db, user.id);
  });

  it('deletes events delivered over a week ago, a batch at a time; undelivered ones stay whatever their age', async () => {
    const db = ctx.database.db;
    const at = Date.parse('2026-11-25T12:00:00Z');
    const day = 24 * 3600_000;
    const event = (id: string) => ({ id, type: 'test.event' });
    const rows = [
      ...Array.from({ length: 1203 }, (_, i) => ({
        id: `old-${i}`,
        event: event(`old-${i}`),
        createdAt: new Date(at - 9 * day),
        deliveredAt: new Date(at - 8 * day),
      })),
      {
        id: 'recent',
        event: event('recent'),
        createdAt: new Date(at - 2 * day),
        deliveredAt: new Date(at - day),
      },
      {
        id: 'at-the-edge',
        event: event('at-the-edge'),
        createdAt: new Date(at - 8 * day),
        deliveredAt: new Date(at - OUTBOX_RETENTION_MS),
      },
      {
        id: 'never-delivered',
        event: event('never-delivered'),
        createdAt: new Date(at - 30 * day),
        deliveredAt: null,
      },
    ];
    for (let i = 0; i < rows.length; i += 500) await db.insert(localOutbox).values(rows.slice(i, i + 500));
    const outbox = createLocalOutbox({ db, deliver: async () => {}, now: () => new Date(at) });
    expect(await outbox.prune()).toBe(1203);
    expect((await db.select({ id: localOutbox.id }).from(localOutbox)).map((r) => r.id).sort()).toEqual([
      'at-the-edge',
      'never-delivered',
      'recent',
    ]);
    expect(await outbox.prune()).toBe(0);
  });
});
