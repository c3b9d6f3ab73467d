import { describe, expect, it } from 'vitest';
import {
  changeSubscriptionBody,
  changeSummary,
  previewUrl,
  subscriptionOptions,
  unusedCredit,
} from './subscription-options';

describe('subscription options (spec 4)', () => {
  it('Pro can upgrade to Unlimited or cancel', () => {
    const options = subscriptionOptions('pro');
    expect(options.map((o) => [o.type, o.plan])).toEqual([
      ['upgrade', 'unlimited'],
      ['cancel', undefined],
    ]);
    expect(options[0]?.detail).toContain('$29.99');
    expect(options[0]?.detail).toContain('less a credit for the unused days of your Pro period');
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

  it('an upgrade carries the amount the user saw; the preview is asked for the same change', () => {
    const [upgrade, cancel] = subscriptionOptions('pro');
    expect(changeSubscriptionBody(upgrade!, 2015)).toEqual({
      type: 'upgrade',
      plan: 'unlimited',
      expectedAmountCents: 2015,
    });
    expect(changeSubscriptionBody(cancel!, 2015)).toEqual({ type: 'cancel' });
    expect(previewUrl(upgrade!)).toBe('/api/billing/plan-change-preview?type=upgrade&plan=unlimited');
    expect(previewUrl(cancel!)).toBe('/api/billing/plan-change-preview?type=cancel');
  });
});

describe('what a change costs, shown before confirming (issue 30)', () => {
  const quote = {
    type: 'upgrade' as const,
    plan: 'unlimited' as const,
    amountDueCents: 2501,
    creditCents: 498,
    unusedDays: 15,
    newPeriod: { start: '2026-11-27T04:00:00.000Z', end: '2026-12-27T04:00:00.000Z' },
    currentPeriodEnd: '2026-12-12T03:00:00.000Z',
    crownsAdded: 35,
    quotedAt: '2026-11-27T04:00:00.000Z',
  };

  it("upgrade: the server's prorated figure due today, the credit, the new period, 35 crowns, kept credits", () => {
    const [upgrade] = subscriptionOptions('pro');
    const rows = changeSummary(upgrade!, { mixCredits: 9, masteringCredits: 0, crowns: 2 }, { data: quote });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['Due today', '$25.01'],
      ['Unused Pro days', '$4.98 credit for 15 unused Pro days'],
      ['Unlimited period', 'Nov 27, 2026 to Dec 27, 2026'],
      ['Then', '$29.99 a month'],
      ['Crowns added now', '35'],
      ['Credits kept', '9 mix credits, spent before crowns'],
    ]);
  });

  it('upgrade before the figure arrives, or when it cannot be had, shows no amount', () => {
    const [upgrade] = subscriptionOptions('pro');
    const none = { mixCredits: 0, masteringCredits: 0, crowns: 0 };
    expect(changeSummary(upgrade!, none)[0]).toEqual({ label: 'Due today', value: 'Calculating...' });
    expect(changeSummary(upgrade!, none, { failed: true })[0]).toEqual({
      label: 'Due today',
      value: 'Could not be calculated',
    });
  });

  it('the credit in plain words: one day, less than a day, none', () => {
    expect(unusedCredit({ creditCents: 33, unusedDays: 1 })).toBe('$0.33 credit for 1 unused Pro day');
    expect(unusedCredit({ creditCents: 1, unusedDays: 0 })).toBe(
      '$0.01 credit for less than a day of unused Pro time',
    );
    expect(unusedCredit({ creditCents: 0, unusedDays: 0 })).toBe(
      'None: your Pro period has no unused days left',
    );
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
