import { z } from 'zod';

export const adminStats = z.object({
  totalUsers: z.number().int(),
  newUsersToday: z.number().int(),
  newUsersThisWeek: z.number().int(),
  newUsersThisMonth: z.number().int(),
  subscribedUsers: z.number().int(),
  freeUsers: z.number().int(),
  recentRegistrations: z.array(
    z.object({
      id: z.number().int(),
      username: z.string(),
      email: z.string(),
      hasSubscription: z.boolean(),
      createdAt: z.string(),
    }),
  ),
});
export type AdminStats = z.infer<typeof adminStats>;

/** Conversion rate shown on the dashboard: subscribers / total users, rounded percent. */
export const conversionRatePercent = (s: Pick<AdminStats, 'subscribedUsers' | 'totalUsers'>): number =>
  s.totalUsers === 0 ? 0 : Math.round((s.subscribedUsers / s.totalUsers) * 100);
