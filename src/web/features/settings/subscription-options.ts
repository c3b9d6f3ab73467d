import type { PlanChangePreview } from '../../../shared/api/billing';
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
        detail: `Takes effect immediately: a month of ${PLANS.unlimited.name} (${formatCents(PLANS.unlimited.priceCents)}) starts today, less a credit for the unused days of your ${PLANS.pro.name} period. ${PLANS.unlimited.allowance.crowns} crowns are added at once, and your existing credits are kept (they are spent before crowns).`,
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

/**
 * The request body of POST /api/auth/change-subscription: plan is absent for cancel (spec 7). An upgrade
 * carries the amount the user saw, so the server refuses rather than charge another (decision 250).
 */
export const changeSubscriptionBody = (option: SubscriptionOption, expectedAmountCents?: number) =>
  option.type === 'cancel'
    ? { type: option.type }
    : option.type === 'upgrade' && expectedAmountCents !== undefined
      ? { type: option.type, plan: option.plan, expectedAmountCents }
      : { type: option.type, plan: option.plan };

/** The preview the dialog asks the server for (decision 250); only an upgrade costs anything now. */
export const previewUrl = (option: SubscriptionOption) =>
  `/api/billing/plan-change-preview?type=${option.type}${option.plan ? `&plan=${option.plan}` : ''}`;

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** "$9.66 credit for 29 unused Pro days", in the words a subscriber reads on a receipt. */
export const unusedCredit = (preview: Pick<PlanChangePreview, 'creditCents' | 'unusedDays'>): string => {
  if (preview.creditCents === 0) return 'None: your Pro period has no unused days left';
  const days =
    preview.unusedDays === 0
      ? 'less than a day of unused Pro time'
      : `${preview.unusedDays} unused Pro ${preview.unusedDays === 1 ? 'day' : 'days'}`;
  return `${formatCents(preview.creditCents)} credit for ${days}`;
};

/**
 * What a change costs and gives, shown before it is confirmed (issue 30, decisions 221 and 250). An
 * upgrade's figures are the server's preview (the amount it would charge now: Unlimited's month less the
 * unused part of the Pro period); until it arrives the amount reads "Calculating...". Downgrade and cancel
 * take nothing now (spec 4).
 */
export const changeSummary = (
  option: SubscriptionOption,
  balances: Balances,
  preview?: { data?: PlanChangePreview; failed?: boolean },
): Array<{ label: string; value: string }> => {
  if (option.type === 'upgrade') {
    const to = PLANS.unlimited;
    const kept = [
      balances.mixCredits > 0 ? `${balances.mixCredits} mix` : null,
      balances.masteringCredits > 0 ? `${balances.masteringCredits} mastering` : null,
    ].filter(Boolean);
    const quote = preview?.data;
    const pending = preview?.failed ? 'Could not be calculated' : 'Calculating...';
    return [
      { label: 'Due today', value: quote ? formatCents(quote.amountDueCents) : pending },
      { label: `Unused ${PLANS.pro.name} days`, value: quote ? unusedCredit(quote) : pending },
      {
        label: `${to.name} period`,
        value: quote?.newPeriod ? `${day(quote.newPeriod.start)} to ${day(quote.newPeriod.end)}` : pending,
      },
      { label: 'Then', value: `${formatCents(to.priceCents)} a month` },
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
