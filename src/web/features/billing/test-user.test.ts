import { describe, expect, it } from 'vitest';
import { generatePassword, TEST_CARDS } from './test-user';

describe('test checkout data', () => {
  it('generates passwords of the requested length that differ between calls', () => {
    const a = generatePassword();
    const b = generatePassword();
    expect(a).toHaveLength(12);
    expect(a).toMatch(/^[A-Za-z0-9]+$/);
    expect(a).not.toBe(b);
  });

  it('lists the three standard test cards', () => {
    expect(TEST_CARDS.map((c) => c.number.replaceAll(' ', ''))).toEqual([
      '4242424242424242',
      '4000000000000002',
      '4000002760003184',
    ]);
  });
});
