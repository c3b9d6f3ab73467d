import { CROWN_PURCHASE } from '../../../shared/plans';

/** Crown quantity rules (spec 5): an integer from 1 to 1000. */
export const clampQuantity = (n: number): number => {
  if (!Number.isFinite(n)) return CROWN_PURCHASE.min;
  return Math.min(CROWN_PURCHASE.max, Math.max(CROWN_PURCHASE.min, Math.trunc(n)));
};

/** Typed text to a quantity; empty or non-numeric input falls back to the minimum. */
export const parseQuantity = (text: string): number => {
  const digits = text.replace(/[^\d]/g, '');
  return digits ? clampQuantity(Number(digits)) : CROWN_PURCHASE.min;
};

export const canDecrease = (q: number): boolean => q > CROWN_PURCHASE.min;
export const canIncrease = (q: number): boolean => q < CROWN_PURCHASE.max;

/** Integer cents, so $0.50 × 3 is exactly $1.50. */
export const crownTotalCents = (quantity: number, crownPriceCents: number): number =>
  quantity * crownPriceCents;
