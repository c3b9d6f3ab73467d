import type { Balances } from '../../../shared/balances';
import { formatCents, PLANS, type PlanId } from '../../../shared/plans';

export interface SubscriptionOption {
  type: 'upgrade' | 'downgrade' | 'cancel';
  plan?: PlanId;
  label: string;
  detail: string;
}

const cancel: SubscriptionOption = {
  type: 'cancel',
  label: 'Cancel subscription',
  detail:
    'You keep full access until the end of the current billing period; after that your account returns to the free trial.',
};

/** The changes a subscriber may choose (spec 4: subscription), in the order shown. */
export const subscriptionOptions = (current: PlanId | null): SubscriptionOption[] => {
  if (current === 'pro') {
    return [
      {
        type: 'upgrade',
        plan: 'unlimited',
        label: `Upgrade to ${PLANS.unlimited.name}`,
        detail: `Takes effect immediately: ${formatCents(PLANS.unlimited.priceCents)} is charged now, ${PLANS.unlimited.allowance.crowns} crowns are added at once, and your existing credits are kept (they are spent before crowns).`,
      },
      cancel,
    ];
  }
  if (current === 'unlimited') {
    return [
      {
        type: 'downgrade',
        plan: 'pro',
        label: `Downgrade to ${PLANS.pro.name}`,
        detail: `Takes effect at your next billing cycle, with no charge now. You keep your crowns, then get ${PLANS.pro.allowance.mixCredits} mix and ${PLANS.pro.allowance.masteringCredits} mastering credits each cycle.`,
      },
      cancel,
    ];
  }
  return [];
};

/** The request body of POST /api/auth/change-subscription: plan is absent for cancel (spec 7). */
export const changeSubscriptionBody = (option: SubscriptionOption) =>
  option.type === 'cancel' ? { type: option.type } : { type: option.type, plan: option.plan };

const monthLater = (from: Date): Date => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
};
const day = (d: Date) =>
  d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * What a change costs and gives, shown before it is confirmed (issue 30, decision 221). The amounts come
 * from the plan table the server charges from. An upgrade starts a new monthly period today at the full
 * price (spec 4: "$29.99 charged"), so the amount due is that price, not a remainder; the summary says so
 * rather than leave the user to guess at proration.
 */
export const changeSummary = (
  option: SubscriptionOption,
  balances: Balances,
  now: Date = new Date(),
): Array<{ label: string; value: string }> => {
  if (option.type === 'upgrade') {
    const to = PLANS.unlimited;
    const kept = [
      balances.mixCredits > 0 ? `${balances.mixCredits} mix` : null,
      balances.masteringCredits > 0 ? `${balances.masteringCredits} mastering` : null,
    ].filter(Boolean);
    return [
      { label: 'Due today', value: formatCents(to.priceCents) },
      { label: `${to.name} period`, value: `${day(now)} to ${day(monthLater(now))}` },
      {
        label: 'Proration',
        value: 'None: a full month of Unlimited starts today; unused Pro days are not credited',
      },
      { label: 'Crowns added now', value: String(to.allowance.crowns) },
      {
        label: 'Credits kept',
        value: kept.length > 0 ? `${kept.join(' and ')} credits, spent before crowns` : 'None left to keep',
      },
    ];
  }
  if (option.type === 'downgrade') {
    return [
      { label: 'Due today', value: formatCents(0) },
      {
        label: 'Changes',
        value: `At your next billing cycle, to ${formatCents(PLANS.pro.priceCents)} a month`,
      },
    ];
  }
  return [{ label: 'Due today', value: formatCents(0) }];
};
