import type { ChangeSubscriptionBody, PlanChangePreview } from '../../../shared/api/billing';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type PlanId } from '../../../shared/plans';
import type { subscriptions } from '../../db/schema';
import { conflict } from '../../errors';
import { addMonth } from './billing-period';
import type { PaymentProvider } from './payment-provider';
import { unusedDays } from './proration';

/**
 * What a change of `sub` would cost and give if confirmed at `at` (decision 250): an upgrade's figures are
 * the provider's quote (the amount it would charge then); downgrade and cancel take nothing now (spec 4),
 * the downgrade's Pro month starting at the next cycle. Only a figure to show: the change recomputes it.
 */
export async function planChangePreview(
  provider: PaymentProvider,
  sub: typeof subscriptions.$inferSelect,
  body: ChangeSubscriptionBody,
  at: Date,
): Promise<PlanChangePreview> {
  const currentPeriodEnd = sub.currentPeriodEnd.toISOString();
  if (body.type === 'upgrade') {
    if (sub.plan !== 'pro') throw conflict(BILLING_MESSAGES.upgradeOnlyFromPro);
    const to = PLANS.unlimited;
    const quote = await provider.previewUpgrade(sub.providerSubscriptionId, to, at);
    return {
      type: 'upgrade',
      plan: to.id,
      amountDueCents: quote.amountDueCents,
      creditCents: quote.creditCents,
      unusedDays: unusedDays(quote.unusedSeconds),
      newPeriod: { start: quote.at.toISOString(), end: quote.newPeriodEnd.toISOString() },
      currentPeriodEnd,
      crownsAdded: to.allowance.crowns,
      quotedAt: quote.at.toISOString(),
    };
  }
  if (body.type === 'downgrade' && sub.plan !== 'unlimited') {
    throw conflict(BILLING_MESSAGES.downgradeOnlyFromUnlimited);
  }
  return {
    type: body.type,
    plan: body.type === 'downgrade' ? 'pro' : (sub.plan as PlanId),
    amountDueCents: 0,
    creditCents: 0,
    unusedDays: 0,
    newPeriod:
      body.type === 'downgrade'
        ? { start: currentPeriodEnd, end: addMonth(sub.currentPeriodEnd).toISOString() }
        : null,
    currentPeriodEnd,
    crownsAdded: 0,
    quotedAt: at.toISOString(),
  };
}
