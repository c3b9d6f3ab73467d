import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { hashToken } from '../../security/tokens';
import { describeEachDatabase } from '../../test/harness';
import { createSessionService } from './session-service';

// The session lookup is hand-written SQL with its own row mapping (decision 082): it must hand every route the
// very row drizzle would, with the same JS types, for every column, null or not.
describeEachDatabase('session lookup', (ctx) => {
  const seed = async (email: string, filled: boolean) => {
    const [u] = await ctx.database.db
      .insert(users)
      .values({ email, username: email.split('@')[0], passwordHash: 'scrypt$x' })
      .returning();
    if (filled) {
      await ctx.database.db
        .update(users)
        .set({
          isAdmin: true,
          subscriptionType: 'pro',
          subscriptionStatus: 'active',
          currentPeriodEnd: new Date('2027-01-02T03:04:05.678Z'),
          cancelAtPeriodEnd: true,
          pendingPlan: 'unlimited',
          mixCredits: 3,
          masteringCredits: 4,
          crowns: 5,
          totpSecret: 'JBSWY3DPEHPK3PXP',
          totpEnabledAt: new Date('2026-05-06T07:08:09.123Z'),
          totpLastStep: 59_000_001,
        })
        .where(eq(users.id, u.id));
    }
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    return row;
  };

  it('resolves a session to exactly the row drizzle reads, nulls and all', async () => {
    const svc = createSessionService(ctx.database, 3600);
    for (const [email, filled] of [
      ['bare@example.test', false],
      ['full@example.test', true],
    ] as const) {
      const expected = await seed(email, filled);
      const token = await svc.create(expected.id);
      const resolved = await svc.resolve(token);
      expect(resolved).toStrictEqual(expected);
      expect(resolved?.createdAt).toBeInstanceOf(Date);
    }
  });

  it('answers concurrent lookups of many sessions, each with its own user, and null for the rest', async () => {
    const svc = createSessionService(ctx.database, 3600);
    const people = await Promise.all(
      Array.from({ length: 12 }, (_, i) => seed(`many${i}@example.test`, i % 2 === 0)),
    );
    const tokens = await Promise.all(people.map((p) => svc.create(p.id)));
    const expired = await svc.create(people[0].id);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, hashToken(expired)));
    const answers = await Promise.all([
      ...tokens.map((t) => svc.resolve(t)),
      svc.resolve(expired),
      svc.resolve('x'.repeat(43)),
    ]);
    expect(answers.slice(0, 12).map((u) => u?.email)).toEqual(people.map((p) => p.email));
    expect(answers.slice(12)).toEqual([null, null]);
  });
});
