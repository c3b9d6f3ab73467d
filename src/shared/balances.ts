import type { PlanId } from './plans';

export interface Balances {
  mixCredits: number;
  masteringCredits: number;
  crowns: number;
}

/** What the product says about the order of spending (decision 220), wherever balances are shown. */
export const SPEND_ORDER_NOTE = 'A download uses a matching credit first, then a crown.';

/**
 * The balance texts of spec 2 ('{n} Mix credits', '{n} Mastering credits', crowns, 'Trial - No downloads'),
 * one list for the header's account menu and the mastering page. Unlimited is shown with crowns only as
 * the spec says, except that credits kept from Pro are listed while any are left (decision 220): they are
 * spent before crowns, so hiding them hid what the next download costs.
 */
export const balanceLines = (subscriptionType: PlanId | null, b: Balances): string[] => {
  if (subscriptionType === null) return ['Trial - No downloads'];
  const crowns = `${b.crowns} ${b.crowns === 1 ? 'Crown' : 'Crowns'}`;
  const mix = `${b.mixCredits} Mix credits`;
  const mastering = `${b.masteringCredits} Mastering credits`;
  if (subscriptionType === 'unlimited') {
    return [...(b.mixCredits > 0 ? [mix] : []), ...(b.masteringCredits > 0 ? [mastering] : []), crowns];
  }
  return [mix, mastering, crowns];
};

/** Whether the list shows credits next to crowns, so the spending order needs saying. */
export const showsCredits = (subscriptionType: PlanId | null, b: Balances): boolean =>
  subscriptionType === 'pro' || (subscriptionType === 'unlimited' && b.mixCredits + b.masteringCredits > 0);
