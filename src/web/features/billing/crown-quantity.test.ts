import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../../shared/plans';
import { canDecrease, canIncrease, clampQuantity, crownTotalCents, parseQuantity } from './crown-quantity';

describe('crown quantity (spec 5)', () => {
  it('is always an integer in 1..1000', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (n) => {
        const q = clampQuantity(n);
        return Number.isInteger(q) && q >= 1 && q <= 1000;
      }),
    );
    expect(clampQuantity(0)).toBe(1);
    expect(clampQuantity(1001)).toBe(1000);
    expect(clampQuantity(25.7)).toBe(25);
  });

  it('parses typed text', () => {
    expect(parseQuantity('')).toBe(1);
    expect(parseQuantity('50')).toBe(50);
    expect(parseQuantity('99999')).toBe(1000);
    expect(parseQuantity('-3')).toBe(3);
  });

  it('minus is disabled at 1 and plus at 1000', () => {
    expect(canDecrease(1)).toBe(false);
    expect(canDecrease(2)).toBe(true);
    expect(canIncrease(1000)).toBe(false);
    expect(canIncrease(999)).toBe(true);
  });

  it('totals in cents', () => {
    expect(formatCents(crownTotalCents(10, 100))).toBe('$10.00');
    expect(formatCents(crownTotalCents(3, 50))).toBe('$1.50');
    expect(formatCents(crownTotalCents(1000, 50))).toBe('$500.00');
  });
});
