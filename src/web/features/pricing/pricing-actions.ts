import type { PublicUser } from '../../../shared/api/user';
import { PLANS, type PlanId } from '../../../shared/plans';

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

export type PlanButton =
  | { kind: 'subscribe' }
  | { kind: 'current'; label: 'Current Plan' }
  | { kind: 'change'; change: 'upgrade' | 'downgrade'; label: string };

/**
 * A plan card's button. A subscriber's other plan opens the plan-change flow (issue 30): a checkout would
 * only answer 'You already have an active subscription'.
 */
export const planButton = (user: PublicUser | null, plan: PlanId): PlanButton => {
  if (!user?.hasSubscription || !user.subscriptionType) return { kind: 'subscribe' };
  if (user.subscriptionType === plan) return { kind: 'current', label: 'Current Plan' };
  return plan === 'unlimited'
    ? { kind: 'change', change: 'upgrade', label: `Upgrade to ${PLANS.unlimited.name}` }
    : { kind: 'change', change: 'downgrade', label: `Downgrade to ${PLANS.pro.name}` };
};
