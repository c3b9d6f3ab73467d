import { and, eq } from 'drizzle-orm';
import { billingCustomers } from '../../db/schema';
import type { UserRow } from '../auth/user-view';
import type { StripeContext } from './stripe-context';
import { call } from './stripe-errors';

/** The user's Stripe customer: found in our billing_customers table, created once, its address kept in step. */

export const customerOf = async (ctx: StripeContext, userId: number): Promise<string | null> => {
  const [row] = await ctx.db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, 'stripe')))
    .limit(1);
  return row?.customerId ?? null;
};

export const ensureCustomer = async (ctx: StripeContext, user: UserRow): Promise<string> => {
  const existing = await customerOf(ctx, user.id);
  if (existing) return existing;
  const created = await call(() =>
    ctx.stripe.customers.create({
      email: user.email,
      name: user.username,
      metadata: { userId: String(user.id) },
    }),
  );
  await ctx.db
    .insert(billingCustomers)
    .values({ userId: user.id, provider: 'stripe', customerId: created.id })
    .onConflictDoNothing();
  return (await customerOf(ctx, user.id)) ?? created.id;
};

/** Stripe mails receipts and invoices to the customer's address: it follows the account's. */
export async function updateCustomerEmail(ctx: StripeContext, userId: number, email: string) {
  const customer = await customerOf(ctx, userId);
  if (customer) await call(() => ctx.stripe.customers.update(customer, { email }));
}
