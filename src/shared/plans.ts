/**
 * The one table of plans and prices (spec sections 6 and 9). Server rules and the screens both read it,
 * so a price or an allowance changes in exactly one place.
 */
export const PLAN_IDS = ['pro', 'unlimited'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price in cents: money is integer cents everywhere. */
  priceCents: number;
  period: 'month';
  description: string;
  features: string[];
  popular: boolean;
  crownPriceCents: number;
  /** Granted at the start of every billing cycle, added to the balance. */
  allowance: { mixCredits: number; masteringCredits: number; crowns: number };
  /** Manual mastering controls (spec 5: Unlimited only). */
  manualMastering: boolean;
  lookupKey: 'pro_plan' | 'unlimited_plan';
}

export const PLANS: Record<PlanId, Plan> = {
  pro: {
    id: 'pro',
    name: 'Pro',
    priceCents: 999,
    period: 'month',
    description: 'For vocalists and producers who release regularly.',
    features: [
      '10 mix credits per month',
      '10 mastering credits per month',
      'Basic mastering presets',
      'Standard support',
      'Crowns as backup at $1.00 each',
    ],
    popular: false,
    crownPriceCents: 100,
    allowance: { mixCredits: 10, masteringCredits: 10, crowns: 0 },
    manualMastering: false,
    lookupKey: 'pro_plan',
  },
  unlimited: {
    id: 'unlimited',
    name: 'Unlimited',
    priceCents: 2999,
    period: 'month',
    description: 'For studios and power users: every tool, every month.',
    features: [
      '35 universal crowns per month',
      'Unlimited mixing and mastering',
      'Advanced manual mastering controls',
      'Priority support',
      'Extra crowns at $0.50 each',
    ],
    popular: true,
    crownPriceCents: 50,
    allowance: { mixCredits: 0, masteringCredits: 0, crowns: 35 },
    manualMastering: true,
    lookupKey: 'unlimited_plan',
  },
};

export const planByLookupKey = (key: string): Plan | undefined =>
  Object.values(PLANS).find((p) => p.lookupKey === key);

/** Crown purchase bounds (spec 5 and 9). */
export const CROWN_PURCHASE = { min: 1, max: 1000, default: 10, quickPicks: [10, 25, 50, 100] } as const;

/**
 * What a tier may do in the mixer. The spec says Apply Sequence "may require an upgrade" for trial users;
 * it is a setting here, not a branch in a screen.
 */
export const TIER_RULES = {
  trial: { canApplySequence: true, canDownload: false, canBuyCrowns: false },
  pro: { canApplySequence: true, canDownload: true, canBuyCrowns: true },
  unlimited: { canApplySequence: true, canDownload: true, canBuyCrowns: true },
} as const;

export type Tier = keyof typeof TIER_RULES;
export const tierOf = (subscriptionType: PlanId | null): Tier => subscriptionType ?? 'trial';

export const formatCents = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
