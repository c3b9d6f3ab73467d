import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import type { client } from '../../test/harness';
import { TEST_CARD_NUMBERS } from './test-cards';

/** Helpers shared by the billing suites (not a test file itself). */
export type Client = ReturnType<typeof client>;

export const FUTURE_EXPIRY = `12/${(new Date().getUTCFullYear() + 3) % 100}`;

/** Posts an HTML form the way a browser does on the hosted checkout page. */
export async function postForm(app: FastifyInstance, url: string, fields: Record<string, string>) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, body: res.body, location: res.headers.location, headers: res.headers };
}

/** Opens a checkout through the API and returns the hosted page's path on this app. */
export async function openCheckout(c: Client, plan: 'pro' | 'unlimited') {
  const res = await c.post('/api/create-checkout-session', { lookup_key: `${plan}_plan` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL((res.body as { url: string }).url).pathname;
}

/** Subscribes through the local provider's hosted checkout with the success card. */
export async function subscribe(app: FastifyInstance, c: Client, plan: 'pro' | 'unlimited') {
  const path = await openCheckout(c, plan);
  const res = await postForm(app, path, {
    number: TEST_CARD_NUMBERS.success,
    expiry: FUTURE_EXPIRY,
    cvc: '123',
  });
  expect(res.status, res.body).toBe(303);
  return res;
}

export async function me(c: Client) {
  const res = await c.get('/api/auth/user');
  expect(res.status).toBe(200);
  return res.body as {
    id: number;
    hasSubscription: boolean;
    subscriptionType: 'pro' | 'unlimited' | null;
    mixCredits: number;
    masteringCredits: number;
    crowns: number;
  };
}

/** The invariant of the ledger: per currency, the sum of a user's rows equals the balance column. */
export async function expectLedgerMatchesBalances(db: Db, userId: number) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  const rows = await db
    .select({
      currency: creditLedger.currency,
      total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int`,
    })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .groupBy(creditLedger.currency);
  const sums = { mix: 0, mastering: 0, crown: 0 } as Record<string, number>;
  for (const r of rows) sums[r.currency] = Number(r.total);
  expect({ mix: sums.mix, mastering: sums.mastering, crown: sums.crown }).toEqual({
    mix: u!.mixCredits,
    mastering: u!.masteringCredits,
    crown: u!.crowns,
  });
}

/** Rows of a raw query, whichever driver (PGlite or node-postgres) ran it. */
export async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows?: T[] } & T[];
  return res.rows ?? res;
}
