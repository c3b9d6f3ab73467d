import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { registerErrorHandler } from './error-handler';

const skip = inject('postgresSkipReason');

/**
 * A transaction PostgreSQL rolls back because it crossed another is answered as retryable: 503 with
 * Retry-After in the API's format (the crown purchase's deadlock of decision 159 once reached the buyer as
 * a 500). The error is a real one: two connections take two advisory locks in opposite orders.
 */
describe.skipIf(Boolean(skip))(`errors: a deadlock${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let first: Database;
  let second: Database;
  beforeAll(async () => {
    first = await openTestDatabase('postgres');
    second = await openTestDatabase('postgres');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  const deadlock = async (): Promise<unknown> => {
    let bothHoldOne: () => void = () => {};
    let held = 0;
    const ready = new Promise<void>((resolve) => {
      bothHoldOne = () => {
        held++;
        if (held === 2) resolve();
      };
    });
    const crossing = (db: Database, mine: number, theirs: number) =>
      db.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${mine})`);
        bothHoldOne();
        await ready;
        await tx.execute(sql`select pg_advisory_xact_lock(${theirs})`);
      });
    const outcomes = await Promise.allSettled([
      crossing(first, 9_101, 9_102),
      crossing(second, 9_102, 9_101),
    ]);
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failed).toHaveLength(1);
    return failed[0]!.reason;
  };

  /** What the API answers when a route fails with `error`. */
  const answerTo = async (error: unknown) => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/failing', async () => {
      throw error;
    });
    try {
      return await app.inject({ method: 'GET', url: '/failing' });
    } finally {
      await app.close();
    }
  };

  it('answers 503 with Retry-After and the service-unavailable message, not a 500', async () => {
    const res = await answerTo(await deadlock());
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
  });

  it('any other database error stays a 500 that says nothing of the internals', async () => {
    const res = await answerTo(await first.db.execute(sql`select 1 / 0`).catch((e: unknown) => e));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: MESSAGES.internal, code: 'internal' });
  });
});
