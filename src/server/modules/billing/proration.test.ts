import { expect, it } from 'vitest';
import { prorateUpgrade, unusedDays } from './proration';

const DAY = 86_400_000;
const start = new Date('2026-11-01T00:00:00Z');
const end = new Date('2026-12-01T00:00:00Z'); // 30 days
const pro = { fromPriceCents: 999, toPriceCents: 2999, periodStart: start, periodEnd: end };
const at = (ms: number) => prorateUpgrade({ ...pro, at: new Date(start.getTime() + ms) });

it('at the start of the period the whole Pro price is credited', () => {
  expect(at(0)).toEqual({ amountDueCents: 2000, creditCents: 999, unusedSeconds: 30 * 86_400 });
  // The first cent of the credit goes after 30 days / 999 = 43 min 14.6 s (half a cent: 21 min 37 s).
  expect(at(21 * 60_000).creditCents).toBe(999);
  expect(at(22 * 60_000).creditCents).toBe(998);
});

it('in the middle half the Pro price is credited, rounded to the cent', () => {
  // 999 x 0.5 = 499.5 rounds up; one hour later 999 x (15 d - 1 h) / 30 d = 498.11.
  expect(at(15 * DAY)).toEqual({ amountDueCents: 2499, creditCents: 500, unusedSeconds: 15 * 86_400 });
  expect(at(15 * DAY + 3_600_000)).toMatchObject({ amountDueCents: 2501, creditCents: 498 });
  expect(unusedDays(at(15 * DAY + 3_600_000).unusedSeconds)).toBe(15);
});

it('at the end nothing is left to credit; past the end or before the start it stays within the price', () => {
  expect(at(30 * DAY - 3_600_000)).toMatchObject({ amountDueCents: 2998, creditCents: 1 });
  expect(at(30 * DAY)).toEqual({ amountDueCents: 2999, creditCents: 0, unusedSeconds: 0 });
  expect(at(31 * DAY)).toEqual({ amountDueCents: 2999, creditCents: 0, unusedSeconds: 0 });
  expect(at(-DAY)).toEqual({ amountDueCents: 2000, creditCents: 999, unusedSeconds: 30 * 86_400 });
  // Whole seconds: 999.9 ms before the end is 0 s unused.
  expect(at(30 * DAY - 999).unusedSeconds).toBe(0);
});

it('never charges below zero, whatever the prices', () => {
  const swapped = prorateUpgrade({ ...pro, fromPriceCents: 2999, toPriceCents: 999, at: start });
  expect(swapped).toMatchObject({ amountDueCents: 0, creditCents: 2999 });
});
