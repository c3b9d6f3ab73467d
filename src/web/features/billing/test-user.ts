/** The display-only test user of the test checkout screen (spec 2); nothing is sent to the server. */
export const TEST_USER = {
  email: 'test_user@example.test',
  username: 'test_user',
  subscription: 'None',
} as const;

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password from the Web Crypto source, long enough to pass the 6-character rule. */
export const generatePassword = (length = 12): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
};

/** The payment provider's standard test cards. */
export const TEST_CARDS = [
  { label: 'Success', number: '4242 4242 4242 4242', result: 'The payment succeeds.' },
  { label: 'Decline', number: '4000 0000 0000 0002', result: 'The card is declined.' },
  { label: '3D Secure', number: '4000 0027 6000 3184', result: 'Asks for a 3D Secure confirmation first.' },
] as const;
