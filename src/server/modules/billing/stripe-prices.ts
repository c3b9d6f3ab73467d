import type Stripe from 'stripe';
import { PLAN_IDS, PLANS, type Plan, type PlanId, planByLookupKey } from '../../../shared/plans';
import { idOf, type StripeContext } from './stripe-context';
import { call } from './stripe-errors';

/** Our plans at Stripe: the prices with the lookup keys `pro_plan` and `unlimited_plan`. */

/** Price ids by plan, looked up once by lookup key (a failed lookup is retried next time). */
const priceIds = (ctx: StripeContext): Promise<Map<PlanId, string>> => {
  const cache = ctx.prices;
  cache.lookup ??= call(async () => {
    const list = await ctx.stripe.prices.list({
      lookup_keys: PLAN_IDS.map((p) => PLANS[p].lookupKey),
      active: true,
    });
    const map = new Map<PlanId, string>();
    for (const price of list.data) {
      const plan = price.lookup_key ? planByLookupKey(price.lookup_key) : undefined;
      if (plan) map.set(plan.id, price.id);
    }
    for (const id of PLAN_IDS) {
      if (!map.has(id)) throw new Error(`Stripe has no active price with lookup key ${PLANS[id].lookupKey}`);
    }
    return map;
  });
  cache.lookup.catch(() => {
    cache.lookup = undefined;
  });
  return cache.lookup;
};

export const priceOf = async (ctx: StripeContext, plan: Plan) => (await priceIds(ctx)).get(plan.id)!;

export const planOfPrice = async (
  ctx: StripeContext,
  price: Stripe.Price | string | null | undefined,
): Promise<PlanId | null> => {
  if (price && typeof price !== 'string' && price.lookup_key) {
    const plan = planByLookupKey(price.lookup_key);
    if (plan) return plan.id;
  }
  const id = idOf(price ?? null);
  for (const [plan, priceId] of await priceIds(ctx)) if (priceId === id) return plan;
  return null;
};
