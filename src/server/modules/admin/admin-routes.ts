import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AdminStats } from '../../../shared/api/admin';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { requireAdmin } from '../../http/auth-context';
import { hasSubscription } from '../auth/user-view';

/** Dashboard figures, counted by the database in one pass (UTC calendar day, ISO week, month). */
export async function adminStats(db: Db): Promise<AdminStats> {
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      today: sql<number>`(count(*) filter (where ${users.createdAt} >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'))::int`,
      week: sql<number>`(count(*) filter (where ${users.createdAt} >= date_trunc('week', now() at time zone 'utc') at time zone 'utc'))::int`,
      month: sql<number>`(count(*) filter (where ${users.createdAt} >= date_trunc('month', now() at time zone 'utc') at time zone 'utc'))::int`,
      subscribed: sql<number>`(count(*) filter (where ${users.subscriptionType} is not null))::int`,
    })
    .from(users);
  const recent = await db.select().from(users).orderBy(desc(users.createdAt), desc(users.id)).limit(10);
  const c = counts ?? { total: 0, today: 0, week: 0, month: 0, subscribed: 0 };
  return {
    totalUsers: c.total,
    newUsersToday: c.today,
    newUsersThisWeek: c.week,
    newUsersThisMonth: c.month,
    subscribedUsers: c.subscribed,
    freeUsers: c.total - c.subscribed,
    recentRegistrations: recent.map((u) => ({
      id: u.id,
      username: u.username,
      email: u.email,
      hasSubscription: hasSubscription(u),
      createdAt: u.createdAt.toISOString(),
    })),
  };
}

export async function adminRoutes(app: FastifyInstance, d: { db: Db }) {
  app.get('/api/admin/stats', async (req) => {
    requireAdmin(req);
    return adminStats(d.db);
  });
}
