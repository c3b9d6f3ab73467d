import { randomBytes } from 'node:crypto';

/**
 * What the Stripe stand-in's parts share (stripe-stand-in.ts serves them): the objects it keeps, the
 * switches a test sets, and the shapes of its answers. Test support only, never used by the app.
 */
export type Obj = Record<string, unknown>;

export const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
export const nowSec = () => Math.floor(Date.now() / 1000);
export const MONTH = 30 * 24 * 3600;
export const values = (v: unknown): Obj[] => (v && typeof v === 'object' ? (Object.values(v) as Obj[]) : []);

export interface StandIn {
  url: string;
  prices: { pro: Obj; unlimited: Obj };
  customers: Map<string, Obj>;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  refunds: Map<string, Obj>;
  /** Every call the SDK made: method, path, parsed parameters and the Idempotency-Key header. */
  requests: Array<{ method: string; path: string; params: Obj; idempotencyKey?: string }>;
  /** The next charge of a saved card fails with card_declined. */
  declineNextCharge: boolean;
  /**
   * The next calls of this kind fail with a 500 that the SDK does not retry (an outage, or the process dying
   * before the answer): nothing is done at Stripe for them.
   */
  failNext: { cancel: number; refund: number };
  /** The customer pays the checkout at Stripe: subscription, card and first invoice now exist. */
  payCheckout(sessionId: string): { session: Obj; subscription: Obj; invoice: Obj };
  /** Stripe starts the next cycle of a subscription and pays its invoice. */
  renew(subscriptionId: string): Obj;
  invoiceFor(subscription: Obj, amount: number, reason: string): Obj;
  close(): Promise<void>;
}

/** The state a test sees (StandIn) and what only the stand-in keeps: the customers' saved cards. */
export interface StandInContext {
  state: StandIn;
  cards: Map<string, Obj[]>;
}

export const priceById = (ctx: StandInContext, id: unknown) =>
  Object.values(ctx.state.prices).find((p) => p.id === id);

/** One request as the routes read it: `seg` is the path's parts, ['v1', ...]. */
export interface StandInRequest {
  method: string;
  path: string;
  seg: string[];
  p: Obj;
}

export type Answer = { status: number; body: unknown; noRetry?: boolean };

export const notFound = (path: string): Answer => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', message: `No such route ${path}` } },
});

export const cardError = (): Answer => ({
  status: 402,
  body: {
    error: {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    },
  },
});

/** Stripe is down (or the answer never arrives): a 500 the SDK is told not to retry. */
export const outage = (): Answer => ({
  status: 500,
  noRetry: true,
  body: { error: { type: 'api_error', message: 'The stand-in was told to fail this call.' } },
});
