import { and, eq, ne } from 'drizzle-orm';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type Plan, type PlanId } from '../../../shared/plans';
import { localCheckoutSessions, localSubscriptions, paymentMethods } from '../../db/schema';
import type { UserRow } from '../auth/user-view';
import { addMonth } from './billing-period';
import {
  chargeInvoice,
  commit,
  ENTITLED_SQL,
  type LocalContext,
  localCustomerId,
  localId,
} from './local-context';
import { type CardDetails, type CardInput, judgeCard } from './test-cards';

/**
 * The local provider's hosted checkout: a session, the card form's verdict, the 3-D Secure step, and the
 * subscription a paid session creates.
 */

/** Where the local provider's hosted checkout lives (served by this app, see local-checkout-routes.ts). */
export const LOCAL_CHECKOUT_PATH = '/billing/checkout';
const SESSION_LIFETIME_MS = 24 * 3600 * 1000;

export type LocalSession = typeof localCheckoutSessions.$inferSelect;

export type SubmitResult =
  | { kind: 'complete' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; message: string; field: 'number' | 'expiry' | 'cvc' | 'form' };

class AlreadySubscribed extends Error {}

export async function createCheckout(ctx: LocalContext, user: UserRow, plan: Plan) {
  const sessionId = localId('cs');
  await ctx.db.insert(localCheckoutSessions).values({ id: sessionId, userId: user.id, plan: plan.id });
  return `${ctx.publicOrigin}${LOCAL_CHECKOUT_PATH}/${sessionId}`;
}

/**
 * The card is good: the provider creates the subscription, saves the card, takes the first invoice and
 * tells us. Claiming the session and creating the subscription happen in one transaction, and the partial
 * unique index on entitled subscriptions lets only one of several sessions paid at once through.
 */
async function complete(ctx: LocalContext, session: LocalSession, card: CardDetails): Promise<SubmitResult> {
  const subId = localId('sub');
  const plan = PLANS[session.plan as PlanId];
  const customer = { customerId: localCustomerId(session.userId), userId: session.userId };
  const started = ctx.now();
  try {
    await commit(ctx, async (tx, emit) => {
      // Only the first submission of a session completes it (a double click, a second tab).
      const [done] = await tx
        .update(localCheckoutSessions)
        .set({ status: 'complete', completedAt: ctx.now(), subscriptionId: subId })
        .where(and(eq(localCheckoutSessions.id, session.id), ne(localCheckoutSessions.status, 'complete')))
        .returning();
      if (!done) return;
      const created = await tx
        .insert(localSubscriptions)
        .values({
          id: subId,
          userId: session.userId,
          plan: plan.id,
          status: 'active',
          currentPeriodStart: started,
          currentPeriodEnd: addMonth(started),
        })
        .onConflictDoNothing({ target: localSubscriptions.userId, where: ENTITLED_SQL })
        .returning({ id: localSubscriptions.id });
      // Another session of this user was paid first: roll back this session's claim, charge nothing.
      if (created.length === 0) throw new AlreadySubscribed();
      await tx
        .delete(paymentMethods)
        .where(and(eq(paymentMethods.userId, session.userId), eq(paymentMethods.provider, 'local')));
      await tx.insert(paymentMethods).values({
        userId: session.userId,
        provider: 'local',
        providerMethodId: localId('pm'),
        ...card,
      });
      emit({ type: 'checkout.session.completed', customer, subscriptionId: subId });
      await chargeInvoice(tx, emit, {
        id: localId('in'),
        userId: session.userId,
        customerId: customer.customerId,
        subscriptionId: subId,
        plan: plan.id,
        amountCents: plan.priceCents,
        billingReason: 'subscription_create',
      });
    });
  } catch (err) {
    if (err instanceof AlreadySubscribed) {
      return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.alreadySubscribed };
    }
    throw err;
  }
  return { kind: 'complete' };
}

/** An open or paid session; like a provider's, an unpaid one expires after a day. */
export async function checkoutSession(
  ctx: LocalContext,
  sessionId: string,
): Promise<LocalSession | undefined> {
  if (!/^cs_local_[\w-]{10,40}$/.test(sessionId)) return undefined;
  const [row] = await ctx.db
    .select()
    .from(localCheckoutSessions)
    .where(eq(localCheckoutSessions.id, sessionId))
    .limit(1);
  if (
    row &&
    row.status !== 'complete' &&
    ctx.now().getTime() - row.createdAt.getTime() > SESSION_LIFETIME_MS
  ) {
    return undefined;
  }
  return row;
}

/** The hosted page's form post: judge the card like the provider would. */
export async function submitCard(
  ctx: LocalContext,
  session: LocalSession,
  input: CardInput,
): Promise<SubmitResult> {
  if (session.status === 'complete') return { kind: 'complete' };
  const outcome = judgeCard(input, ctx.now());
  if (outcome.kind === 'declined') return outcome;
  if (outcome.kind === 'requires_action') {
    await ctx.db
      .update(localCheckoutSessions)
      .set({
        status: 'requires_action',
        cardBrand: outcome.card.brand,
        cardLast4: outcome.card.last4,
        cardExpMonth: outcome.card.expMonth,
        cardExpYear: outcome.card.expYear,
      })
      .where(eq(localCheckoutSessions.id, session.id));
    return { kind: 'requires_action' };
  }
  return complete(ctx, session, outcome.card);
}

/** The 3-D Secure step: the cardholder confirms (the payment goes through) or fails it. */
export async function authenticate(
  ctx: LocalContext,
  session: LocalSession,
  approve: boolean,
): Promise<SubmitResult> {
  if (session.status === 'complete') return { kind: 'complete' };
  if (session.status !== 'requires_action' || !session.cardLast4) {
    return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
  }
  await ctx.db
    .update(localCheckoutSessions)
    .set({ status: 'open', cardBrand: null, cardLast4: null, cardExpMonth: null, cardExpYear: null })
    .where(eq(localCheckoutSessions.id, session.id));
  if (!approve) return { kind: 'declined', field: 'form', message: BILLING_MESSAGES.authenticationFailed };
  return complete(ctx, session, {
    brand: session.cardBrand ?? 'visa',
    last4: session.cardLast4,
    expMonth: session.cardExpMonth ?? 12,
    expYear: session.cardExpYear ?? ctx.now().getUTCFullYear(),
  });
}
