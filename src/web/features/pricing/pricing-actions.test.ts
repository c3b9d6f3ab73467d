import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../shared/api/user';
import { buyCrownsTarget, planButton, subscribeTarget } from './pricing-actions';

const user = (over: Partial<PublicUser> = {}): PublicUser => ({
  id: 1,
  email: 'a@example.test',
  username: 'a',
  hasSubscription: false,
  subscriptionType: null,
  mixCredits: 0,
  masteringCredits: 0,
  crowns: 0,
  isAdmin: false,
  createdAt: '2025-01-01T00:00:00Z',
  emailVerified: false,
  twoFactorEnabled: false,
  ...over,
});

describe('pricing actions (spec 2)', () => {
  it('Subscribe: signed out to /auth, signed in to the checkout with the plan', () => {
    expect(subscribeTarget(null, 'pro')).toBe('/auth');
    expect(subscribeTarget(user(), 'unlimited')).toBe('/checkout?plan=unlimited');
  });

  it('Buy Crowns: /auth, /buy-crowns for subscribers, a hint for trial users', () => {
    expect(buyCrownsTarget(null)).toBe('/auth');
    expect(buyCrownsTarget(user({ hasSubscription: true, subscriptionType: 'pro' }))).toBe('/buy-crowns');
    expect(buyCrownsTarget(user())).toBeNull();
  });
});

describe('plan buttons (issue 30)', () => {
  it('visitors and trial users subscribe; a subscriber changes plan through the plan-change flow', () => {
    expect(planButton(null, 'pro')).toEqual({ kind: 'subscribe' });
    expect(planButton(user(), 'unlimited')).toEqual({ kind: 'subscribe' });
    const pro = user({ hasSubscription: true, subscriptionType: 'pro' });
    expect(planButton(pro, 'pro')).toMatchObject({ kind: 'current' });
    expect(planButton(pro, 'unlimited')).toEqual({
      kind: 'change',
      change: 'upgrade',
      label: 'Upgrade to Unlimited',
    });
    const unlimited = user({ hasSubscription: true, subscriptionType: 'unlimited' });
    expect(planButton(unlimited, 'pro')).toEqual({
      kind: 'change',
      change: 'downgrade',
      label: 'Downgrade to Pro',
    });
  });
});
