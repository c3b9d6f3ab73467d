/**
 * A billing period's length: a calendar month. One place for the local provider's periods and for the
 * period a scheduled downgrade starts (plan-change-preview.ts), whichever provider runs it.
 */
/** One calendar month later (UTC), clamped to the month's last day like providers do (Jan 31 → Feb 28). */
export function addMonth(from: Date): Date {
  const y = from.getUTCFullYear();
  const mo = from.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  const d = new Date(from);
  d.setUTCDate(1);
  d.setUTCMonth(mo);
  d.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return d;
}
