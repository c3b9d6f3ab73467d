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
        detail: `Takes effect immediately: ${formatCents(PLANS.unlimited.priceCents)} is charged now, ${PLANS.unlimited.allowance.crowns} crowns are added at once, and your existing credits are kept.`,
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
