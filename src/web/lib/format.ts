import { PLANS, type PlanId } from '../../shared/plans';

/** Avatar initials: the first two letters of the username in upper case (spec 2). */
export const initials = (username: string): string => username.trim().slice(0, 2).toUpperCase() || '?';

export const planLabel = (plan: PlanId | null | undefined): string => (plan ? PLANS[plan].name : 'Free');

export const formatDate = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
};

/** Reads `plan` from a query string; anything but pro or unlimited falls back to pro (spec 2). */
export const planFromQuery = (value: string | null): PlanId => (value === 'unlimited' ? 'unlimited' : 'pro');
