import { PLANS, type PlanId } from '../../shared/plans';

/** Avatar initials: the first two letters of the username in upper case (spec 2). */
export const initials = (username: string): string => username.trim().slice(0, 2).toUpperCase() || '?';

export const planLabel = (plan: PlanId | null | undefined): string => (plan ? PLANS[plan].name : 'Free');

export const formatDate = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/**
 * When a session was last used, as the Settings list says it: the server refreshes "last seen" at most
 * every 5 minutes, so anything newer is "Active now"; a week or more reads as a date.
 */
export const formatLastSeen = (iso: string, now: number = Date.now()): string => {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const ago = Math.max(0, now - then);
  if (ago < 5 * MINUTE) return 'Active now';
  if (ago < HOUR) return plural(Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return plural(Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return plural(Math.floor(ago / DAY), 'day');
  return formatDate(iso);
};

/** Reads `plan` from a query string; anything but pro or unlimited falls back to pro (spec 2). */
export const planFromQuery = (value: string | null): PlanId => (value === 'unlimited' ? 'unlimited' : 'pro');
