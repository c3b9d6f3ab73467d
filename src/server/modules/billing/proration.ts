/**
 * The upgrade's price (decision 250): the new plan's full month, which starts now, less the unused part of
 * the current period's price. The same arithmetic as Stripe's `always_invoice` proration with the billing
 * cycle anchored at now: whole seconds left over the period's length, the credit rounded to the cent.
 */
export interface UpgradeProration {
  /** What is charged now: never below zero. */
  amountDueCents: number;
  /** The unused part of the current period's price. */
  creditCents: number;
  /** Whole seconds of the current period not yet used at `at`. */
  unusedSeconds: number;
}

export function prorateUpgrade(p: {
  fromPriceCents: number;
  toPriceCents: number;
  periodStart: Date;
  periodEnd: Date;
  at: Date;
}): UpgradeProration {
  const lengthSeconds = Math.max(1, Math.round((p.periodEnd.getTime() - p.periodStart.getTime()) / 1000));
  // Clamped: a period that has already ended (a late renewal) leaves nothing to credit, and a period that
  // has not started yet (a clock skew) is credited in full, never more.
  const unusedSeconds = Math.min(
    lengthSeconds,
    Math.max(0, Math.floor((p.periodEnd.getTime() - p.at.getTime()) / 1000)),
  );
  const creditCents = Math.round((p.fromPriceCents * unusedSeconds) / lengthSeconds);
  return { amountDueCents: Math.max(0, p.toPriceCents - creditCents), creditCents, unusedSeconds };
}

/** Unused seconds as the days a person counts (29.6 days left reads "30 unused days"). */
export const unusedDays = (unusedSeconds: number): number => Math.round(unusedSeconds / 86_400);
