import type { PublicUser } from '../../../shared/api/user';
import type { PlanId } from '../../../shared/plans';
import type { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/** hasSubscription has one definition: a plan is set (billing clears it when a subscription ends). */
export const hasSubscription = (u: Pick<UserRow, 'subscriptionType'>): boolean => u.subscriptionType !== null;

export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    hasSubscription: hasSubscription(u),
    subscriptionType: (u.subscriptionType as PlanId | null) ?? null,
    mixCredits: u.mixCredits,
    masteringCredits: u.masteringCredits,
    crowns: u.crowns,
    isAdmin: u.isAdmin,
    createdAt: u.createdAt.toISOString(),
    emailVerified: u.emailVerifiedAt !== null,
    twoFactorEnabled: u.totpEnabledAt !== null,
  };
}
