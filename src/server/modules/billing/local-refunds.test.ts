import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { localPayments, localSubscriptions } from '../../db/schema';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { subscribe } from './billing-test-helpers';
import { createLocalProvider } from './local-provider';

/** The local test provider's cancel and refund (decision 157): safe to repeat and to run at once. */
describeEachDatabase('local provider cancel and refund', (ctx) => {
  it('refunds each charge of a subscription once, whatever the number of calls; cancel can be repeated', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await subscribe(ctx.app, c, 'unlimited');
    const db = ctx.database.db;
    const local = createLocalProvider({ db, publicOrigin: 'http://app.test', deliver: async () => {} });
    const [sub] = await db.select().from(localSubscriptions).where(eq(localSubscriptions.userId, user.id));
    const answers = await Promise.all(Array.from({ length: 5 }, () => local.refundSubscription(sub!.id)));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]!.map((r) => r.amountCents)).toEqual([2999]);
    const rows = await db.select().from(localPayments).where(eq(localPayments.userId, user.id));
    expect(rows.map((r) => [r.kind, r.amountCents]).sort()).toEqual([
      ['refund', 2999],
      ['subscription_create', 2999],
    ]);
    await local.cancelNow(sub!.id);
    await local.cancelNow(sub!.id);
    expect((await local.retrieveSubscription(sub!.id)).status).toBe('canceled');
  });
});
