import { BILLING_MESSAGES } from '../../../shared/api/billing';

/**
 * The local test provider's card rules: the payment provider's standard test numbers behave as they do at
 * the provider (spec 2, test checkout). Any other number is refused, as a test-mode provider refuses real
 * cards, so nobody types a real card into a test page by mistake and sees it "work".
 */
export const TEST_CARD_NUMBERS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  threeDSecure: '4000002760003184',
} as const;

export interface CardInput {
  number: string;
  /** "MM/YY" or "MM/YYYY" */
  expiry: string;
  cvc: string;
}

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type CardOutcome =
  | { kind: 'success'; card: CardDetails }
  | { kind: 'requires_action'; card: CardDetails }
  | { kind: 'declined'; message: string; field: 'number' | 'expiry' | 'cvc' };

const luhnValid = (digits: string): boolean => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};

const brandOf = (digits: string): string => {
  if (digits.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(digits) || /^2[2-7]/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
};

export function judgeCard(input: CardInput, now = new Date()): CardOutcome {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return { kind: 'declined', field: 'number', message: BILLING_MESSAGES.cardNumberIncorrect };
  }
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = m ? Number(m[1]) : 0;
  const year = m ? (m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])) : 0;
  const endOfExpiryMonth = Date.UTC(year, month, 1);
  if (!m || month < 1 || month > 12 || endOfExpiryMonth <= now.getTime()) {
    return { kind: 'declined', field: 'expiry', message: BILLING_MESSAGES.cardExpired };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    return { kind: 'declined', field: 'cvc', message: BILLING_MESSAGES.cvcIncorrect };
  }
  const card: CardDetails = {
    brand: brandOf(digits),
    last4: digits.slice(-4),
    expMonth: month,
    expYear: year,
  };
  if (digits === TEST_CARD_NUMBERS.success) return { kind: 'success', card };
  if (digits === TEST_CARD_NUMBERS.threeDSecure) return { kind: 'requires_action', card };
  if (digits === TEST_CARD_NUMBERS.decline) {
    return { kind: 'declined', field: 'number', message: BILLING_MESSAGES.cardDeclined };
  }
  return { kind: 'declined', field: 'number', message: BILLING_MESSAGES.nonTestCard };
}
