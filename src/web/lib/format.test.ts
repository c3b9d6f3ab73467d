import { describe, expect, it } from 'vitest';
import { initials, planFromQuery, planLabel } from './format';

describe('format helpers', () => {
  it('initials are the first two letters in upper case', () => {
    expect(initials('jane.doe')).toBe('JA');
    expect(initials('x')).toBe('X');
    expect(initials('')).toBe('?');
  });

  it('plan names and the checkout plan query', () => {
    expect(planLabel(null)).toBe('Free');
    expect(planLabel('unlimited')).toBe('Unlimited');
    expect(planFromQuery('unlimited')).toBe('unlimited');
    expect(planFromQuery('pro')).toBe('pro');
    expect(planFromQuery('bogus')).toBe('pro');
    expect(planFromQuery(null)).toBe('pro');
  });
});
