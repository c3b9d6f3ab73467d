import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPostgres } from '../src/server/db/client';
import { expectLedgerMatchesBalances, rowsOf } from '../src/server/modules/billing/billing-test-helpers';
import { resetDatabase, testPostgresUrl } from '../src/server/test/harness';
import { subscribeOverHttp } from './helpers/http-flows';
import { api, killAllServers, registerUser, startServerProcess, tempDir } from './helpers/server-processes';

/**
 * kill -9 of a server while 40 users upgrade Pro → Unlimited on the local provider, on PostgreSQL. The
 * provider's step (its subscription row and its charge) and the app's step (plan, payment, crowns) must not
 * stay apart: after the restart, the outbox's start-up sweep delivers what the crash held back, and for every
 * user the provider, the app's mirror, the payments and the ledger agree.
 */
const USERS = 40;
const skip = inject('postgresSkipReason');

interface Row {
  id: number;
  app_plan: string | null;
  mirror_plan: string | null;
  provider_plan: string | null;
}

describe.skipIf(Boolean(skip))(`faults: kill -9 during upgrades${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let database: Database;
  let dbUrl: string;
  beforeAll(async () => {
    dbUrl = await testPostgresUrl();
    database = await openPostgres(dbUrl);
  });
  afterAll(async () => {
    await killAllServers();
    await database?.close();
  });

  /** Per user: the plan in the app, in the app's mirror of the provider, and at the provider. */
  const plans = () =>
    rowsOf<Row>(
      database.db,
      sql`select u.id, u.subscription_type as app_plan,
            (select plan from subscriptions s where s.user_id = u.id and s.status = 'active') as mirror_plan,
            (select plan from local_subscriptions l where l.user_id = u.id and l.status = 'active') as provider_plan
          from users u order by u.id`,
    );
  const upgradePayments = () =>
    rowsOf<{ user_id: number; n: number; cents: number }>(
      database.db,
      sql`select user_id, count(*)::int as n, sum(amount_cents)::int as cents from payments
          where kind = 'subscription_update' group by user_id`,
    );

  it(`${USERS} users upgrading when the server dies: provider, app, payments and ledger agree after the restart`, async () => {
    await resetDatabase(database);
    const env = { DATABASE_URL: dbUrl, DATA_DIR: tempDir('fault-upgrade'), AUTH_RATE_LIMIT: '100000' };
    const first = await startServerProcess('upgrade-1', env);
    const users: Array<{ token: string; id: number }> = [];
    for (let i = 0; i < USERS; i += 4) {
      const batch = [i, i + 1, i + 2, i + 3].map((n) =>
        registerUser(first.origin, `upgrader${n}@example.test`),
      );
      users.push(...(await Promise.all(batch)));
    }
    for (let i = 0; i < USERS; i += 10) {
      await Promise.all(users.slice(i, i + 10).map((u) => subscribeOverHttp(first.origin, u.token, 'pro')));
    }

    const inFlight = users.map((u) =>
      api(
        first.origin,
        'POST',
        '/api/auth/change-subscription',
        { type: 'upgrade', plan: 'unlimited' },
        { 'x-auth-token': u.token },
      ).then(
        (r) => r.status,
        () => 0,
      ),
    );
    await Promise.race(inFlight); // the first answer: upgrades are between their steps right now
    await first.crash();
    const answered = await Promise.all(inFlight);
    expect(answered.filter((s) => s === 0).length, 'some upgrades were cut by the crash').toBeGreaterThan(0);
    const split = (await plans()).filter((r) => r.provider_plan !== r.app_plan);
    // The crash landed between the provider's step and the app's: otherwise this test proves nothing.
    expect(split.length, 'users left apart by the crash').toBeGreaterThan(0);

    await startServerProcess('upgrade-2', env);
    await expect
      .poll(async () => (await plans()).filter((r) => r.provider_plan !== r.app_plan).length, {
        timeout: 30_000,
      })
      .toBe(0);

    const rows = await plans();
    const upgrades = new Map((await upgradePayments()).map((p) => [p.user_id, p]));
    for (const [i, u] of users.entries()) {
      const row = rows.find((r) => r.id === u.id)!;
      expect(row.mirror_plan, `user ${u.id}`).toBe(row.provider_plan);
      // An upgrade that answered 200 happened everywhere.
      if (answered[i] === 200) expect(row.app_plan).toBe('unlimited');
      // Money taken at the provider is money recorded by the app, once, with its crowns.
      expect(upgrades.get(u.id)?.n ?? 0, `user ${u.id}`).toBe(row.provider_plan === 'unlimited' ? 1 : 0);
      if (row.provider_plan === 'unlimited') expect(upgrades.get(u.id)?.cents).toBe(2999);
      await expectLedgerMatchesBalances(database.db, u.id);
    }
    const crowns = await rowsOf<{ id: number; crowns: number; subscription_type: string }>(
      database.db,
      sql`select id, crowns, subscription_type from users`,
    );
    for (const c of crowns) expect(c.crowns).toBe(c.subscription_type === 'unlimited' ? 35 : 0);
    // Every charge of the provider has its payment row in the app, and nothing else does.
    const unmatched = await rowsOf<{ id: string }>(
      database.db,
      sql`select l.id from local_payments l full join payments p on p.reference = l.id and p.provider = 'local'
          where l.id is null or p.id is null`,
    );
    expect(unmatched).toEqual([]);
    const pending = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from local_outbox where delivered_at is null`,
    );
    expect(pending[0]!.n).toBe(0);
  }, 180_000);
});
