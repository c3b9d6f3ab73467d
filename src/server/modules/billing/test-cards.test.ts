import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { addMonth } from './billing-period';
import { judgeCard, TEST_CARD_NUMBERS } from './test-cards';

const now = new Date('2026-11-21T12:00:00Z');
const card = (number: string, expiry = '12/28', cvc = '123') => judgeCard({ number, expiry, cvc }, now);

describe('local test provider cards', () => {
  it('behave like the provider’s test cards', () => {
    expect(card('4242 4242 4242 4242')).toEqual({
      kind: 'success',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2028 },
    });
    expect(card(TEST_CARD_NUMBERS.decline)).toMatchObject({
      kind: 'declined',
      message: BILLING_MESSAGES.cardDeclined,
    });
    expect(card('4000-0027-6000-3184')).toMatchObject({ kind: 'requires_action', card: { last4: '3184' } });
  });

  it('refuse bad numbers, past expiries, bad CVCs and real cards', () => {
    expect(card('4242424242424241')).toMatchObject({
      field: 'number',
      message: BILLING_MESSAGES.cardNumberIncorrect,
    });
    expect(card('4242')).toMatchObject({ field: 'number' });
    expect(card(TEST_CARD_NUMBERS.success, '10/26')).toMatchObject({ field: 'expiry' });
    expect(card(TEST_CARD_NUMBERS.success, '11/26')).toMatchObject({ kind: 'success' });
    expect(card(TEST_CARD_NUMBERS.success, '13/30')).toMatchObject({ field: 'expiry' });
    expect(card(TEST_CARD_NUMBERS.success, '12/2030')).toMatchObject({
      kind: 'success',
      card: { expYear: 2030 },
    });
    expect(card(TEST_CARD_NUMBERS.success, '12/30', '12')).toMatchObject({ field: 'cvc' });
    expect(card('5555555555554444')).toMatchObject({
      kind: 'declined',
      message: BILLING_MESSAGES.nonTestCard,
    });
  });

  it('advance a period by one calendar month, clamped to the month’s end', () => {
    expect(addMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonth(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(addMonth(new Date('2028-01-30T00:00:00Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });
});
