import type { PublicUser } from '../../../shared/api/user';
import type { PlanId } from '../../../shared/plans';

/** Where Subscribe leads (spec 2): signed out to /auth, otherwise the checkout with the plan chosen. */
export const subscribeTarget = (user: PublicUser | null, plan: PlanId): string =>
  user ? `/checkout?plan=${plan}` : '/auth';

/**
 * Buy Crowns (spec 2): signed out to /auth, subscribers to /buy-crowns; a signed-in non-subscriber stays on
 * the page with a hint that crowns need a subscription (null = show the hint).
 */
export const buyCrownsTarget = (user: PublicUser | null): string | null => {
  if (!user) return '/auth';
  return user.hasSubscription ? '/buy-crowns' : null;
};
