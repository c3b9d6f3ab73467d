import { describe, expect, it } from 'vitest';
import { changeSubscriptionBody, subscriptionOptions } from './subscription-options';

describe('subscription options (spec 4)', () => {
  it('Pro can upgrade to Unlimited or cancel', () => {
    const options = subscriptionOptions('pro');
    expect(options.map((o) => [o.type, o.plan])).toEqual([
      ['upgrade', 'unlimited'],
      ['cancel', undefined],
    ]);
    expect(options[0]?.detail).toContain('$29.99');
    expect(options[0]?.detail).toContain('35 crowns');
  });

  it('Unlimited can downgrade to Pro or cancel', () => {
    expect(subscriptionOptions('unlimited').map((o) => [o.type, o.plan])).toEqual([
      ['downgrade', 'pro'],
      ['cancel', undefined],
    ]);
  });

  it('trial users have nothing to change', () => {
    expect(subscriptionOptions(null)).toEqual([]);
  });

  it('cancel sends no plan', () => {
    const [upgrade, cancel] = subscriptionOptions('pro');
    expect(changeSubscriptionBody(upgrade!)).toEqual({ type: 'upgrade', plan: 'unlimited' });
    expect(changeSubscriptionBody(cancel!)).toEqual({ type: 'cancel' });
  });
});
