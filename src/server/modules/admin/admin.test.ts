import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import {
  client,
  describeEachDatabase,
  enableTwoFactor,
  signedUpClient,
  verifiedClient,
} from '../../test/harness';

describeEachDatabase('admin stats', (ctx) => {
  it('answers 401 signed out and 403 for a non-admin', async () => {
    expect((await client(ctx.app).get('/api/admin/stats')).status).toBe(401);
    const { c } = await signedUpClient(ctx.app);
    const res = await c.get('/api/admin/stats');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: MESSAGES.adminRequired });
  });

  it('counts users by day, week, month and plan, newest registrations first', async () => {
    const { c: admin } = await verifiedClient(ctx, 'boss@example.test');
    await enableTwoFactor(admin);
    await signedUpClient(ctx.app, 'pro@example.test');
    await signedUpClient(ctx.app, 'old@example.test');
    await signedUpClient(ctx.app, 'ancient@example.test');
    await ctx.database.db.execute(
      sql`update users set subscription_type = 'pro' where email = 'pro@example.test'`,
    );
    await ctx.database.db.execute(
      sql`update users set created_at = date_trunc('month', now()) - interval '2 days' where email = 'old@example.test'`,
    );
    await ctx.database.db.execute(
      sql`update users set created_at = now() - interval '400 days' where email = 'ancient@example.test'`,
    );

    const res = await admin.get('/api/admin/stats');
    expect(res.status).toBe(200);
    const stats = res.body as Record<string, unknown> & {
      recentRegistrations: Array<{ email: string; hasSubscription: boolean }>;
    };
    expect(stats).toMatchObject({
      totalUsers: 4,
      newUsersToday: 2,
      newUsersThisMonth: 2,
      subscribedUsers: 1,
      freeUsers: 3,
    });
    expect(stats.newUsersThisWeek).toBeGreaterThanOrEqual(2);
    expect(stats.recentRegistrations.map((r) => r.email)).toEqual([
      'pro@example.test',
      'boss@example.test',
      'old@example.test',
      'ancient@example.test',
    ]);
    expect(stats.recentRegistrations[0]).toMatchObject({ hasSubscription: true });
    expect(Object.keys(stats.recentRegistrations[0]!).sort()).toEqual([
      'createdAt',
      'email',
      'hasSubscription',
      'id',
      'username',
    ]);
  });
});
