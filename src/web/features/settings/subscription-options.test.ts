import { describe, expect, it } from 'vitest';
import { changeSubscriptionBody, changeSummary, subscriptionOptions } from './subscription-options';

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

describe('what a change costs, shown before confirming (issue 30)', () => {
  it('upgrade: $29.99 due today for a month from today, 35 crowns, the kept credits named', () => {
    const [upgrade] = subscriptionOptions('pro');
    const rows = changeSummary(
      upgrade!,
      { mixCredits: 9, masteringCredits: 0, crowns: 2 },
      new Date('2026-11-27T04:00:00Z'),
    );
    expect(Object.fromEntries(rows.map((r) => [r.label, r.value]))).toMatchObject({
      'Due today': '$29.99',
      'Unlimited period': 'Nov 27, 2026 to Dec 27, 2026',
      'Crowns added now': '35',
      'Credits kept': '9 mix credits, spent before crowns',
    });
  });
  it('downgrade and cancel: nothing due today', () => {
    for (const option of subscriptionOptions('unlimited')) {
      expect(changeSummary(option, { mixCredits: 0, masteringCredits: 0, crowns: 0 })[0]).toEqual({
        label: 'Due today',
        value: '$0.00',
      });
    }
  });
});
