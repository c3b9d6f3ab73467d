import { describe, expect, it } from 'vitest';
import { formatLastSeen, initials, planFromQuery, planLabel } from './format';

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

  it('says when a session was last used', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(formatLastSeen(ago(0), now)).toBe('Active now');
    expect(formatLastSeen(ago(4 * 60_000), now)).toBe('Active now');
    expect(formatLastSeen(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatLastSeen(ago(61 * 60_000), now)).toBe('1 hour ago');
    expect(formatLastSeen(ago(30 * 3600_000), now)).toBe('1 day ago');
    expect(formatLastSeen(ago(3 * 24 * 3600_000), now)).toBe('3 days ago');
    expect(formatLastSeen('2026-10-01T09:00:00Z', now)).toBe('Oct 1, 2026');
    // A clock a little behind the server's is not "in the future".
    expect(formatLastSeen(new Date(now + 30_000).toISOString(), now)).toBe('Active now');
  });
});
