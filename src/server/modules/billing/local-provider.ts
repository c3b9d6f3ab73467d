import type { Plan } from '../../../shared/plans';
import type { Db } from '../../db/client';
import type { UserRow } from '../auth/user-view';
import type { Tx } from './ledger-service';
import {
  authenticate,
  checkoutSession,
  createCheckout,
  type LocalSession,
  submitCard,
} from './local-checkout';
import type { LocalContext } from './local-context';
import { createLocalOutbox } from './local-outbox';
import { chargeCrowns, listPaymentMethods, refundSubscription } from './local-payments';
import {
  advanceCycle,
  cancelAtPeriodEnd,
  cancelNow,
  retrieveSubscription,
  scheduleDowngrade,
} from './local-subscriptions';
import { previewUpgrade, upgrade } from './local-upgrade';
import type { PaymentProvider, ProviderEvent, UpgradeQuote } from './payment-provider';
import type { CardInput } from './test-cards';

export { LOCAL_CHECKOUT_PATH, type LocalSession, type SubmitResult } from './local-checkout';
export { localCustomerId } from './local-context';

/**
 * The local test provider: a payment provider that lives in this app, for development, tests and demos
 * without Stripe keys. Its own tables (local_*, payment_methods) play the provider's side; it tells us what
 * happened the way Stripe does, with events, which go through the same fulfilment as Stripe's webhooks.
 * Every change of its rows writes its events in the same transaction (the outbox, decision 091), so a crash
 * between the provider's step and the app's step cannot leave them apart for good.
 *
 * This file only assembles it: each part takes the shared context (local-context.ts).
 */
export function createLocalProvider(d: {
  db: Db;
  publicOrigin: string;
  /** Delivers an event to our fulfilment (set by the module once both exist). */
  deliver: (event: ProviderEvent) => Promise<unknown>;
  now?: () => Date;
}) {
  const now = d.now ?? (() => new Date());
  const outbox = createLocalOutbox({ db: d.db, deliver: d.deliver, now });
  const ctx: LocalContext = { db: d.db, publicOrigin: d.publicOrigin, now, outbox };

  const provider: PaymentProvider = {
    name: 'local',
    createCheckout: (user: UserRow, plan: Plan) => createCheckout(ctx, user, plan),
    retrieveSubscription: (subId: string, tx?: Tx) => retrieveSubscription(ctx, subId, tx),
    previewUpgrade: (subId: string, to: Plan, at: Date) => previewUpgrade(ctx, subId, to, at),
    upgrade: (subId: string, to: Plan, idempotencyKey: string, quote: UpgradeQuote) =>
      upgrade(ctx, subId, to, idempotencyKey, quote),
    scheduleDowngrade: (subId: string, to: Plan) => scheduleDowngrade(ctx, subId, to),
    cancelAtPeriodEnd: (subId: string) => cancelAtPeriodEnd(ctx, subId),
    cancelNow: (subId: string) => cancelNow(ctx, subId),
    refundSubscription: (subId: string) => refundSubscription(ctx, subId),
    chargeCrowns: (user: UserRow, crowns: number, amountCents: number, idempotencyKey: string) =>
      chargeCrowns(ctx, user, crowns, amountCents, idempotencyKey),
    // The local provider keeps no address of its own: its customer is the user row.
    updateCustomerEmail: async () => {},
    listPaymentMethods: (user: UserRow) => listPaymentMethods(ctx, user),
  };

  return {
    ...provider,
    name: 'local' as const,
    outbox,
    session: (sessionId: string) => checkoutSession(ctx, sessionId),
    submitCard: (session: LocalSession, input: CardInput) => submitCard(ctx, session, input),
    authenticate: (session: LocalSession, approve: boolean) => authenticate(ctx, session, approve),
    advanceCycle: (userId: number) => advanceCycle(ctx, userId),
  };
}
export type LocalProvider = ReturnType<typeof createLocalProvider>;
